/**
 * SRM (Scalable Reliable Multicast, Floyd et al. 1997) as a sans-I/O {@link io.ricochet.engine.ProtocolEngine}:
 * the NAK-based baseline Ricochet is measured against (paper, section 3.1 and Figure 2). Loss is discovered from
 * sequence gaps and periodic session messages; recovery is by multicast requests and multicast repairs on random
 * timers with suppression. Entry points: {@link io.ricochet.srm.SrmProtocol} and {@link io.ricochet.srm.SrmConfig};
 * see {@code docs/design/srm.md}.
 */
package io.ricochet.srm;
