/**
 * Layered multicast congestion control for a digital fountain (Byers, Luby, Mitzenmacher and Rege, section VII-A,
 * after Vicisano, Rizzo and Crowcroft's receiver-driven scheme): the sender's fixed schedule of cumulative layers at
 * geometric rates, synchronisation points and burst probes ({@link io.ricochet.fountain.layered.LayerSchedule},
 * {@link io.ricochet.fountain.layered.LayeredSender}), and each receiver's join / leave rule from its own losses
 * ({@link io.ricochet.fountain.layered.LayeredReceiver}).
 *
 * Sans-I/O like the rest of {@code io.ricochet.fountain}: time is an argument; the simulator
 * ({@code io.ricochet.sim.LayeredSimulation}) drives it. See {@code docs/design/fountain.md}, section 5.
 */
package io.ricochet.fountain.layered;
