/**
 * Rate-of-fire tuning: a controller per group that sets the group's LEC rate-of-fire c from what this node observes
 * of its losses and how they were recovered (the paper's section 6 future work, issue 36). Sans-I/O and
 * deterministic: time is an argument and no choice is random. See {@code docs/design/lec.md}, "Rate-of-fire that
 * tunes itself".
 */
package io.ricochet.lec.tuning;
