/**
 * {@code bench api-transport}: the daemon's local API over loopback TCP against its Unix domain socket, measured in
 * one process on one host. A {@link io.ricochet.bench.transport.LoopbackDaemon} (a GMS partition and a daemon,
 * insecure, on loopback) serves both; {@link io.ricochet.bench.transport.RoundTrips} times requests one at a time
 * and {@link io.ricochet.bench.transport.DeliveryRun} pushes messages through the daemon to a subscriber, with
 * {@link io.ricochet.bench.transport.ThreadCpu} splitting the CPU they cost between the clients and the rest.
 */
package io.ricochet.bench.transport;
