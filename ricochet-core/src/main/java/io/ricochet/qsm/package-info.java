/**
 * QuickSilver Scalable Multicast's token-ring recovery ("qsm", Ostrowski, Birman and Dolev 2008): the members of a
 * group form a ring ordered by node id; a token circulates at a configured rate carrying per sender the collective
 * acknowledgement (so senders release their buffers) and recovery records (who misses what), and a member holding a
 * packet another misses forwards it to that peer. See {@code docs/design/qsm.md}.
 */
package io.ricochet.qsm;
