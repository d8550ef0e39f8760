package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.control.codec.ControlCodec;
import io.ricochet.control.codec.ControlDecodeException;
import io.ricochet.control.link.Partitioning;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.DetectorRecovered;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.GmsStatus;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MemberEventKind;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import io.ricochet.control.message.Redirect;
import io.ricochet.control.message.Register;
import io.ricochet.control.message.Serving;
import io.ricochet.control.message.Watch;
import io.ricochet.control.message.WatchList;
import io.ricochet.control.tls.PeerIdentity.Role;
import io.ricochet.control.tls.PeerIdentity;
import io.ricochet.support.Fuzz;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the GMS's role checks: random control messages of every type (random fields, and some re-encoded, mutated
 * and decoded again by {@link ControlCodec}) sent, on one connection per sender, by a daemon (its own node and
 * others), a detector, a GMS, a certificate of another OU, a daemon certificate whose CN names no node, and a
 * connection without a certificate, into the real {@link GmsSessionHandler} (TLS on) with the real
 * {@link DaemonRequests} and {@link DetectorReports} in front of a recording log. The rule, written here
 * independently of the handler (docs/design/security.md): REGISTER (as its own node), JOIN and LEAVE only from a
 * daemon; NODE_FAILED, NODE_RECOVERED, DETECTOR_FAILED, DETECTOR_RECOVERED and WATCH only from a detector. A message
 * the role may not send is answered NOT_AUTHORIZED, counted in {@link GmsCounter#ROLE_REFUSED} and never reaches
 * the log; the connection stays open and nothing throws. {@code -Dricochet.fuzz.inputs=N} sets the messages (10^5
 * by default).
 */
class GmsRoleFuzzTest {
    private static final long SEED = Fuzz.seed(0x474d53524f4c45L);
    private static final int INPUTS = Fuzz.inputs(100_000);
    private static final int OWN_NODE = 7;

    /** A sender: who its certificate says it is, and the node it may register as (-1 for none). */
    private record Sender(PeerIdentity identity, int node) {
    }

    private static final List<Sender> SENDERS = Arrays.asList(
            new Sender(PeerIdentity.daemon(OWN_NODE), OWN_NODE),
            new Sender(new PeerIdentity(Role.DAEMON, "node-007", "CN=node-007,OU=daemon"), -1),
            new Sender(new PeerIdentity(Role.DAEMON, "rack-1", "CN=rack-1,OU=daemon"), -1),
            new Sender(new PeerIdentity(Role.DETECTOR, "node-7", "CN=node-7,OU=detector"), -1),
            new Sender(new PeerIdentity(Role.GMS, "gms-p0", "CN=gms-p0,OU=gms"), -1),
            new Sender(new PeerIdentity(Role.OTHER, "node-7", "CN=node-7,OU=admin"), -1),
            new Sender(null, -1));

    /** The log: what reached it, and from where. */
    private static final class Log implements DaemonRequests.Submitter {
        long submitted;

        @Override
        public void submit(io.netty.channel.Channel channel, ControlMessage request) {
            submitted++;
        }
    }

    @Test
    void shouldRefuseCountAndNeverApplyWhatTheRoleMayNotSend() {
        SplittableRandom rng = new SplittableRandom(SEED);
        GmsCounters counters = new GmsCounters();
        Log log = new Log();
        SessionTable sessions = new SessionTable(counters);
        EmbeddedChannel[] channels = new EmbeddedChannel[SENDERS.size()];
        GmsSessionHandler[] handlers = new GmsSessionHandler[2];
        for (int partition = 0; partition < 2; partition++) {
            Partitioning partitioning = new Partitioning(partition, 2);
            DaemonRequests daemons = new DaemonRequests(partitioning, sessions, counters, log);
            handlers[partition] = new GmsSessionHandler(daemons, new DetectorReports(partitioning, counters, log),
                    sessions, counters, true, sessions::open);
        }
        int refused = 0;
        int taken = 0;
        for (int i = 0; i < INPUTS; i++) {
            int s = rng.nextInt(SENDERS.size());
            Sender sender = SENDERS.get(s);
            if (channels[s] == null || rng.nextInt(1_000) == 0) {
                channels[s] = channel(handlers[rng.nextInt(2)], sender.identity());
            }
            EmbeddedChannel channel = channels[s];
            ControlMessage message = message(rng);
            String what = "seed=" + SEED + " #" + i + " " + message + " from " + sender.identity();
            long roleRefused = counters.get(GmsCounter.ROLE_REFUSED);
            long submitted = log.submitted;
            channel.writeInbound(message);
            channel.checkException();
            assertTrue(channel.isOpen(), what + ": the connection stays open");
            ErrorReply reply = channel.readOutbound();
            Object more = channel.readOutbound();
            assertEquals(null, more, what + ": one reply at most");
            if (!allowed(sender, message)) {
                assertEquals(roleRefused + 1, counters.get(GmsCounter.ROLE_REFUSED), what + ": counted");
                assertEquals(submitted, log.submitted, what + ": refused, yet it reached the log");
                assertEquals(ErrorCode.NOT_AUTHORIZED, reply == null ? -1 : reply.code(), what + ": " + reply);
                refused++;
            } else {
                assertEquals(roleRefused, counters.get(GmsCounter.ROLE_REFUSED), what + ": allowed, yet refused");
                if (reply == null) {
                    assertEquals(submitted + 1, log.submitted, what + ": neither logged nor answered");
                    taken++;
                } else {
                    assertEquals(submitted, log.submitted, what + ": answered " + reply + ", yet logged");
                    assertNotEquals(ErrorCode.NOT_AUTHORIZED, reply.code(), what + ": " + reply);
                }
            }
        }
        for (EmbeddedChannel channel : channels) {
            if (channel != null) {
                channel.finishAndReleaseAll();
            }
        }
        assertTrue(refused > INPUTS / 4 && taken > INPUTS / 50, refused + " refused, " + taken + " logged");
    }

    private static EmbeddedChannel channel(GmsSessionHandler handler, PeerIdentity identity) {
        EmbeddedChannel channel = new EmbeddedChannel();
        if (identity != null) {
            channel.attr(PeerIdentity.KEY).set(identity);
        }
        channel.pipeline().addLast(handler);
        channel.pipeline().fireChannelActive();
        return channel;
    }

    /**
     * The rule as docs/design/security.md states it. Messages of no role (those the GMS sends, GMS_STATUS) pass
     * the role check for any certificate and are refused as unexpected; without a certificate nothing passes.
     */
    private static boolean allowed(Sender sender, ControlMessage message) {
        PeerIdentity peer = sender.identity();
        if (peer == null) {
            return false;
        }
        if (message instanceof Register register) {
            return peer.role() == Role.DAEMON && register.nodeId() == sender.node();
        }
        if (message instanceof Join || message instanceof Leave) {
            return peer.role() == Role.DAEMON;
        }
        if (message instanceof NodeFailed || message instanceof NodeRecovered || message instanceof DetectorFailed
                || message instanceof DetectorRecovered || message instanceof Watch) {
            return peer.role() == Role.DETECTOR;
        }
        return true;
    }

    /** A random message of any type; a third of them re-encoded, mutated and decoded again where that decodes. */
    private static ControlMessage message(SplittableRandom rng) {
        ControlMessage message = randomMessage(rng);
        if (rng.nextInt(3) != 0) {
            return message;
        }
        ByteBuf buf = Unpooled.buffer();
        ControlCodec.encode(message, buf);
        byte[] frame = new byte[buf.readableBytes()];
        buf.readBytes(frame);
        buf.release();
        byte[] body = Arrays.copyOfRange(frame, ControlCodec.LENGTH_FIELD_BYTES, frame.length);
        try {
            return ControlCodec.decode(Unpooled.wrappedBuffer(Fuzz.mutate(rng, body, body)));
        } catch (ControlDecodeException malformed) {
            return message;   // the codec's own fuzz test covers what it refuses
        }
    }

    private static ControlMessage randomMessage(SplittableRandom rng) {
        int node = node(rng);
        int group = rng.nextInt(4) == 0 ? rng.nextInt() : rng.nextInt(8);
        String detector = rng.nextBoolean() ? "rack-" + rng.nextInt(4) : "d" + rng.nextInt(1_000);
        return switch (rng.nextInt(15)) {
            case 0, 1 -> new Register(node, address(rng), rng.nextLong());
            case 2, 3 -> new Join(group, node, rng.nextInt(4) == 0 ? rng.nextInt(256) : Join.PROTOCOL_RICOCHET);
            case 4 -> new Leave(group, node);
            case 5 -> new NodeFailed(node);
            case 6 -> new NodeRecovered(node);
            case 7 -> new DetectorFailed(detector);
            case 8 -> new DetectorRecovered(detector);
            case 9 -> new Watch(detector, rng.nextInt(8));
            case 10 -> new ErrorReply(rng.nextInt(16), "oops " + rng.nextInt());
            case 11 -> new Serving(rng.nextInt(2), 2, rng.nextLong(100));
            case 12 -> new Redirect(rng.nextBoolean() ? Optional.of(address(rng)) : Optional.empty());
            case 13 -> rng.nextBoolean() ? new GmsStatus(rng.nextLong(100), rng.nextLong(100))
                    : new WatchList(List.of(new WatchList.Target(node, 1, address(rng))));
            default -> rng.nextBoolean() ? new MemberEvent(MemberEventKind.JOIN, group, rng.nextLong(100), node,
                    address(rng), rng.nextLong()) : new GroupView(group, 0, rng.nextLong(100), address(rng),
                    Map.of(node, address(rng)), Map.of(node, rng.nextLong()));
        };
    }

    /** Mostly this daemon's node or a neighbour, sometimes any int. */
    private static int node(SplittableRandom rng) {
        int pick = rng.nextInt(10);
        return pick < 4 ? OWN_NODE : pick < 8 ? rng.nextInt(16) : rng.nextInt();
    }

    private static InetSocketAddress address(SplittableRandom rng) {
        return new InetSocketAddress("127.0.0." + (1 + rng.nextInt(254)), 1 + rng.nextInt(65_535));
    }
}
