/**
 * The fountain backup behind LEC, both halves: the sender's trigger and answer
 * ({@link io.ricochet.fountain.backup.NakRuns}, {@link io.ricochet.fountain.backup.FountainSender}, which the NAK
 * responder consults), the receiver's decoders ({@link io.ricochet.fountain.backup.FountainReceiver}, which the
 * Ricochet engine feeds) and their counters ({@link io.ricochet.fountain.backup.FountainCounter}).
 *
 * Sans-I/O like the rest of {@code io.ricochet.fountain}: time is an argument. Built on the shared engine parts
 * ({@code io.ricochet.engine}) and the FOUNTAIN frame ({@code io.ricochet.wire}); it knows neither the NAK layer nor
 * the engine that use it. See {@code docs/design/fountain.md}, section 6.
 */
package io.ricochet.fountain.backup;
