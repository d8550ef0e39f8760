/**
 * Datagram authentication: the cluster's keys ({@link io.ricochet.auth.ClusterKeys}, from a 0600 key file) and the
 * trailer every datagram carries ({@link io.ricochet.auth.DatagramAuth}: sealed on send, checked on receive before
 * any other code reads the frame). Design and measurements: docs/design/security.md.
 */
package io.ricochet.auth;
