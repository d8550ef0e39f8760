/**
 * The Ricochet protocol, the daemon's default ({@code protocol=ricochet}): Lateral Error Correction (package
 * {@code lec}) with the NAK layer (package {@code nak}) behind it, in one sans-I/O engine
 * ({@link io.ricochet.lecnak.RicochetEngine}), its settings ({@link io.ricochet.lecnak.RicochetConfig}) and its
 * factory ({@link io.ricochet.lecnak.RicochetProtocol}). The design note is {@code docs/design/lec.md}.
 */
package io.ricochet.lecnak;
