/**
 * Mutual TLS on the control links (daemon and failure detector to GMS): {@link io.ricochet.control.tls.TlsSettings}
 * loads a process's certificate, key and CA and builds Netty's {@code SslContext}s;
 * {@link io.ricochet.control.tls.PeerIdentity} is who the peer's certificate says it is (role from the OU, name from
 * the CN); {@link io.ricochet.control.tls.TlsServerGate} counts failed handshakes and keeps TLS errors away from the
 * control handlers. See {@code docs/design/security.md}.
 */
package io.ricochet.control.tls;
