/**
 * {@code bench rx-paths}: two ways to take datagrams from the kernel, measured against each other on one host: the
 * daemon's (Netty's epoll channel reading with recvmmsg on its event loop) and a dedicated receive thread blocked
 * in {@code DatagramChannel.receive}, the paper's daemon's design (issue 12, point 1).
 */
package io.ricochet.bench.rx;
