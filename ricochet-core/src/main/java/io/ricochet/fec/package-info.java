/**
 * Sender-based FEC (Ricochet paper, section 3.1), the baseline Ricochet is measured against: for every r data
 * packets a sender multicasts to a group, c repair packets of a systematic Reed-Solomon code over GF(2^8) (plain
 * XOR parity when c = 1), so a receiver holding any r of a block's r + c packets rebuilds it; an optional NAK
 * layer behind it.
 *
 * <ul>
 *   <li>API: {@link io.ricochet.fec.FecProtocol} (protocol {@code "fec"}), {@link io.ricochet.fec.FecConfig},
 *       {@link io.ricochet.fec.FecEngine};</li>
 *   <li>the code: {@link io.ricochet.fec.Gf256}, {@link io.ricochet.fec.GfMatrix},
 *       {@link io.ricochet.fec.ReedSolomon}, {@link io.ricochet.fec.ReedSolomonEncoder},
 *       {@link io.ricochet.fec.ReedSolomonDecoder}, {@link io.ricochet.fec.ErasureBlock};</li>
 *   <li>the wire: {@link io.ricochet.fec.FecRepairFlyweight} (frame type 24) and
 *       {@link io.ricochet.fec.FecFrameValidator}.</li>
 * </ul>
 *
 * Sans-I/O like the Ricochet engine: no clock, sockets or threads; time is an argument. See
 * {@code docs/design/fec.md}.
 */
package io.ricochet.fec;
