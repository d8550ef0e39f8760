package io.ricochet.gms;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.control.codec.ControlCodec;
import io.ricochet.control.codec.ControlDecodeException;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.DetectorRecovered;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import io.ricochet.control.message.Register;
import io.ricochet.control.message.Watch;
import java.util.Objects;

/**
 * One entry of a partition's Raft log: a membership {@code request} (REGISTER, JOIN, LEAVE, NODE_FAILED,
 * NODE_RECOVERED, or WATCH, DETECTOR_FAILED, DETECTOR_RECOVERED for the rack assignments, as the control protocol
 * carries it) with the {@code session} it came in on at the leader that
 * took it (meaningful only to that replica's process: it tells it which connection to bind, answer and refuse)
 * and the leader's wall clock when it took it ({@code clockMs}, from which new groups' view ids are drawn, so
 * every replica draws the same). Bytes: {@code [u64 session][u64 clockMs][the request's control frame]}.
 */
record Command(long session, long clockMs, ControlMessage request) {
    private static final int HEADER_BYTES = 16;

    Command {
        Objects.requireNonNull(request, "request");
        if (!isReplicated(request)) {
            throw new IllegalArgumentException(request + " is not a membership change");
        }
    }

    /** Whether {@code message} changes membership and so goes through the log. */
    static boolean isReplicated(ControlMessage message) {
        return message instanceof Register || message instanceof Join || message instanceof Leave
                || message instanceof NodeFailed || message instanceof NodeRecovered || message instanceof Watch
                || message instanceof DetectorFailed || message instanceof DetectorRecovered;
    }

    byte[] toBytes() {
        ByteBuf buf = Unpooled.buffer();
        buf.writeLong(session).writeLong(clockMs);
        ControlCodec.encode(request, buf);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    /** Decodes a log entry; throws on anything this class did not write. */
    static Command fromBytes(byte[] bytes) throws ControlDecodeException {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        int frameStart = HEADER_BYTES + ControlCodec.LENGTH_FIELD_BYTES;
        if (bytes.length < frameStart || buf.getInt(HEADER_BYTES) != bytes.length - frameStart) {
            throw new ControlDecodeException(ControlDecodeException.Reason.BAD_VALUE, "log entry of "
                    + bytes.length + " bytes is not [session][clock][one frame]");
        }
        long session = buf.readLong();
        long clockMs = buf.readLong();
        ControlMessage request = ControlCodec.decode(buf.slice(frameStart, bytes.length - frameStart));
        if (!isReplicated(request)) {
            throw new ControlDecodeException(ControlDecodeException.Reason.BAD_VALUE, request
                    + " in the log is not a membership change");
        }
        return new Command(session, clockMs, request);
    }
}
