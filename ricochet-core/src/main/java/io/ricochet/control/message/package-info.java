/**
 * The messages of the control protocol that daemons, GMS partitions and failure detectors exchange: one record per
 * message type behind the sealed {@link io.ricochet.control.message.ControlMessage}, the registries of type and
 * error codes ({@link io.ricochet.control.message.MessageType}, {@link io.ricochet.control.message.ErrorCode}), and
 * the range checks that keep every record within its wire fields ({@link io.ricochet.control.message.Fields}). Their
 * bytes are {@code io.ricochet.control.codec}'s; see {@code docs/design/membership.md}.
 */
package io.ricochet.control.message;
