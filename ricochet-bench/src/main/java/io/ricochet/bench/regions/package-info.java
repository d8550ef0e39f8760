/**
 * {@code bench regions}: QSM's region computation on the paper's Figure 5/6 scenario (nodes joining a tenth of
 * the groups, Zipf popularity), with the numbers the paper reports next to it. See {@code docs/results.md}.
 */
package io.ricochet.bench.regions;
