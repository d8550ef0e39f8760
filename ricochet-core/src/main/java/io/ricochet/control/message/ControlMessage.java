package io.ricochet.control.message;

import io.ricochet.control.codec.ControlCodec;

/**
 * One message of the control protocol spoken between daemons, the GMS partitions and the failure detectors.
 * {@link ControlCodec} is the only place that knows the bytes; {@link MessageType} lists the type codes.
 * See {@code docs/design/membership.md}.
 */
public sealed interface ControlMessage
        permits Register, Join, Leave, NodeFailed, NodeRecovered, DetectorFailed, DetectorRecovered,
        GroupView, MemberEvent, ErrorReply, Serving, Redirect, Watch, WatchList, GmsStatus {

    /** This message's type code, one of {@link MessageType}. */
    int type();
}
