/**
 * Plain IP multicast ("ipmc", the baseline of the Bimodal Multicast paper): each datagram is multicast once and
 * delivered where it arrives, once, in arrival order; nothing is repaired, requested or reported lost. See
 * {@code docs/design/ipmc.md}.
 */
package io.ricochet.ipmc;
