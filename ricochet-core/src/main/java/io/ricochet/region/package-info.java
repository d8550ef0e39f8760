/**
 * QuickSilver Scalable Multicast's regions (Ostrowski, Birman and Dolev 2008, section 3), computed with no I/O: the
 * groups of one GMS partition are split greedily into sets that overlap regularly, and within each set the nodes
 * with the same membership form a region. The GMS gives each region a multicast address; a message to a group is
 * sent once to each region inside the group. See {@code docs/design/regions.md}.
 */
package io.ricochet.region;
