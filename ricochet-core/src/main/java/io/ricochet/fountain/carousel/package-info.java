/**
 * The Digital Fountain carousel for bulk data, sans I/O: the symbol message a sender multicasts for each LT encoding
 * symbol of a file ({@link io.ricochet.fountain.carousel.SymbolMessage}, validated field by field), the sender that
 * makes them ({@link io.ricochet.fountain.carousel.CarouselSender}) and the receiver that decodes and verifies the
 * file from whichever of them arrive ({@link io.ricochet.fountain.carousel.CarouselReceiver}). The command line
 * ({@code ricochet fountain send|recv}) moves them through the daemon. See {@code docs/design/fountain.md},
 * section 7.
 */
package io.ricochet.fountain.carousel;
