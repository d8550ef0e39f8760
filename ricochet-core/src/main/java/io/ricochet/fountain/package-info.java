/**
 * Digital Fountain (Byers, Luby, Mitzenmacher and Rege, SIGCOMM 1998), on Luby's LT codes: an encoder that makes an
 * endless stream of encoding symbols from a message, any slightly more than k of which rebuild it, whichever they
 * are and whenever the receiver started.
 *
 * <ul>
 *   <li>the code: {@link io.ricochet.fountain.RobustSoliton} (degrees), {@link io.ricochet.fountain.SymbolDraw}
 *       (which source symbols a symbol id combines), {@link io.ricochet.fountain.LtEncoder},
 *       {@link io.ricochet.fountain.LtDecoder} (peeling).</li>
 * </ul>
 *
 * Sans-I/O like the protocol engines: no clock, sockets or threads. See {@code docs/design/fountain.md}.
 */
package io.ricochet.fountain;
