package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.api.DeliveryListener;
import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.lecnak.RicochetProtocol;
import io.ricochet.loss.LossInjector;
import io.ricochet.loss.LossScope;
import io.ricochet.nak.NakCounter;
import io.ricochet.support.Fuzz;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.PacketRefFlyweight;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The daemon's engine driver without sockets: frames go in as the Netty handler hands them over, time is a
 * controlled clock, the one timer runs on an {@link EmbeddedChannel}'s event loop, and the sockets are a
 * {@link RecordingTransport}. The engine is Ricochet's own.
 */
class EngineDriverTest {
    private static final int SELF = 1;
    private static final int PEER = 5;
    private static final int G = 3;
    private static final long MS = 1_000_000L;
    private static final InetSocketAddress MULTICAST = new InetSocketAddress("239.0.0.3", 9003);
    private static final InetSocketAddress PEER_ADDRESS = new InetSocketAddress("127.0.0.5", 7005);

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final RecordingTransport transport = new RecordingTransport();
    private final Counters counters = new Counters(DaemonCounter.ALL);
    private final List<Long> delivered = new ArrayList<>();
    private final List<byte[]> payloads = new ArrayList<>();
    private final List<Runnable> endOfBatch = new ArrayList<>();
    private long timeNs = 1_000 * MS;
    private int clockReads;
    /** Data packets the injector drops next, in the order the driver processes them. */
    private int dataDropsToCome;

    private final DeliveryListener app = new DeliveryListener() {
        @Override
        public void delivered(int origin, int group, long seqno, byte[] payload) {
            delivered.add(seqno);
            payloads.add(payload);
        }

        @Override
        public void lost(int origin, int group, long seqno) {
            delivered.add(-1 - seqno);
        }
    };

    private final ReceiveBuffer rx = new ReceiveBuffer(64, 2048, new SplittableRandom(1), counters);
    private final EngineDriver driver = newDriver(0, 0);

    /** A driver bundling up to {@code bundleBytes}; the end of the loop's batch is {@link #endBatch}. */
    private EngineDriver newDriver(int bundleBytes, long lingerNs) {
        channel.freezeTime();
        LossInjector injector = new LossInjector(() -> {
            boolean drop = dataDropsToCome > 0;
            dataDropsToCome = Math.max(0, dataDropsToCome - 1);
            return drop;
        }, LossScope.DATA, SELF);
        EngineDriver d = new EngineDriver(SELF, channel.eventLoop(), this::clock, injector, counters);
        RicochetConfig config = RicochetConfig.builder().build();
        d.attach(new RicochetProtocol(config).create(SELF, new SplittableRandom(2), d), transport, bundleBytes,
                lingerNs, endOfBatch::add);
        Map<Integer, InetSocketAddress> members = new LinkedHashMap<>();
        members.put(SELF, new InetSocketAddress("127.0.0.1", 7001));
        members.put(PEER, PEER_ADDRESS);
        d.applyView(G, MULTICAST, members, Map.of());
        d.addListener(G, app);
        answerJoinProbe(d);
        return d;
    }

    /** The peer, in the group first, answers this node's JOIN_PROBE: its stream here starts at 0. */
    private void answerJoinProbe(EngineDriver d) {
        RecordingTransport.Sent probe = transport.sent.stream().filter(s -> s.type() == FrameType.JOIN_PROBE)
                .findFirst().orElseThrow();
        byte[] answer = new byte[PacketRefFlyweight.JOIN_LENGTH];
        new PacketRefFlyweight().wrap(answer, 0).writeJoin(FrameType.JOIN_POINT, PEER, PEER, G, 0,
                new PacketRefFlyweight().wrap(probe.frame(), 0).nonce());
        receive(answer);
        d.process(rx);
        transport.sent.clear();
    }

    private long clock() {
        clockReads++;
        return timeNs;
    }

    private void advance(long ns) {
        timeNs += ns;
        channel.advanceTimeBy(ns, TimeUnit.NANOSECONDS);
        channel.runScheduledPendingTasks();
    }

    private void endBatch() {
        List<Runnable> tasks = List.copyOf(endOfBatch);
        endOfBatch.clear();
        tasks.forEach(Runnable::run);
    }

    /** A DATA (or RETRANSMIT) frame from the peer whose payload is {@code payload}, in the daemon's format. */
    private static byte[] frame(int type, long seqno, byte[] payload) {
        byte[] frame = new byte[DataFlyweight.DATA_HEADER_LENGTH + payload.length];
        new DataFlyweight().wrap(frame, 0).write(type, PEER, PEER, G, seqno, payload, 0, payload.length);
        return frame;
    }

    private static byte[] data(long seqno) {
        return frame(FrameType.DATA, seqno, BundleFormatTest.single(new byte[] {(byte) seqno}));
    }

    /** The application messages of the DATA frames this node multicast, one list per datagram. */
    private List<List<byte[]>> sentDatagrams() {
        List<List<byte[]>> out = new ArrayList<>();
        for (RecordingTransport.Sent sent : transport.sent) {
            if (sent.type() == FrameType.DATA) {
                DataFlyweight data = new DataFlyweight().wrap(sent.frame(), 0);
                out.add(BundleFormatTest.messages(java.util.Arrays.copyOfRange(sent.frame(), data.payloadOffset(),
                        data.payloadOffset() + data.payloadLength())));
            }
        }
        return out;
    }

    /** A received datagram, kept in the batch the next {@link #process} hands the driver. */
    private void receive(byte[] frame) {
        rx.offer(frame[HeaderFlyweight.TYPE_OFFSET] == FrameType.DATA, frame, 0, frame.length, frame.length);
    }

    private void process() {
        driver.process(rx);
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void shouldProcessAReadBurstAtOneClockReadingAndDeliverToTheSubscribers() {
        clockReads = 0;

        receive(data(0));
        receive(data(1));
        receive(data(2));
        assertEquals(List.of(), delivered, "nothing reaches the engine before the burst ends");
        process();

        assertEquals(List.of(0L, 4096L, 8192L), delivered, "message ids: seqno * 4096 + index");
        assertArrayEquals(new byte[] {2}, payloads.get(2), "the message, without the kind byte");
        assertEquals(1, clockReads, "one clock reading for the whole burst");
        assertEquals(3, driver.engine().counters().get(EngineCounter.DATA_RECEIVED));
    }

    @Test
    void shouldTakeNoLossFromASessionReadBeforeTheDataItAnnouncesInOneBatch() {
        receive(data(0));
        process();
        byte[] session = new byte[PacketRefFlyweight.LENGTH];
        new PacketRefFlyweight().wrap(session, 0).write(FrameType.SESSION, PEER, PEER, G, 3);
        receive(session); // read from the socket first: the announcement overtook the data of its burst
        receive(data(1));
        receive(data(2));
        receive(data(3));
        process();
        assertEquals(List.of(0L, 4096L, 8192L, 12288L), delivered);
        assertEquals(0, driver.engine().counters().get(EngineCounter.LOSSES_DETECTED), "nothing of it was missing");
        assertEquals(0, driver.engine().counters().get(EngineCounter.LATE_ARRIVALS));
    }

    @Test
    void shouldMeasureRecoveryFromTheInjectedDropThroughTheOneTimer() {
        dataDropsToCome = 1;
        receive(data(0));
        receive(data(1));
        process();
        assertEquals(1, counters.get(DaemonCounter.INJECTED_DROPS));
        assertEquals(List.of(4096L), delivered);
        transport.sent.clear();

        advance(100 * MS);

        List<RecordingTransport.Sent> naks = transport.sent.stream().filter(s -> s.type() == FrameType.NAK).toList();
        assertEquals(1, naks.size(), "the NAK timeout fired through the driver's timer");
        assertEquals(PEER_ADDRESS, naks.get(0).to());
        assertEquals(0, new PacketRefFlyweight().wrap(naks.get(0).frame(), 0).seqno());

        advance(3 * MS);
        receive(frame(FrameType.RETRANSMIT, 0, BundleFormatTest.single(new byte[] {0})));
        process();

        assertEquals(List.of(4096L, 0L), delivered);
        assertEquals(1, driver.engine().counters().get(EngineCounter.RECOVERED_BY_NAK));
        assertEquals(1, driver.latencies().nak().count());
        assertEquals(103.0, driver.latencies().nak().summary().mean(), 0.1, "from the drop, in ms");
        assertEquals(1, driver.latencies().discovery().count());
    }

    @Test
    void shouldCountFramesForDestinationsWithoutAnAddress() {
        driver.unicast(99, new byte[] {1, 2, 3}, 0, 3);
        driver.multicast(G + 1, new byte[] {1, 2, 3}, 0, 3);

        assertEquals(2, counters.get(DaemonCounter.UNKNOWN_DESTINATIONS));
        assertTrue(transport.sent.isEmpty());
    }

    @Test
    void shouldSendEachMulticastOnceToEveryRegionOfTheGroup() {
        InetSocketAddress one = new InetSocketAddress("239.254.0.1", 9003);
        InetSocketAddress two = new InetSocketAddress("239.254.0.2", 9003);
        Map<Integer, InetSocketAddress> members = new LinkedHashMap<>();
        members.put(SELF, new InetSocketAddress("127.0.0.1", 7001));
        members.put(PEER, PEER_ADDRESS);
        driver.applyView(G, one, List.of(one, two), members, Map.of(), List.of());
        transport.sent.clear();
        byte[] payload = {1, 2, 3};
        driver.engine().send(G, payload, 0, payload.length, driver.now());
        driver.afterEngineCall();
        List<InetSocketAddress> to = transport.sent.stream().filter(s -> s.type() == FrameType.DATA)
                .map(RecordingTransport.Sent::to).toList();
        assertEquals(List.of(one, two), to);
        assertArrayEquals(transport.sent.get(0).frame(), transport.sent.get(1).frame());
    }

    @Test
    void shouldFlushTheApplicationSendsOfOneBatchOnceAtItsEnd() {
        int flushes = transport.flushes;
        transport.sent.clear();
        for (int i = 0; i < 5; i++) {
            driver.sendFromApplication(G, new byte[] {(byte) i}, null);
        }
        assertEquals(5, sentDatagrams().size(), "each message its own datagram, handed to the transport");
        assertEquals(flushes, transport.flushes, "none flushed before the batch ends");

        endBatch();
        assertEquals(flushes + 1, transport.flushes, "one flush for the batch's five datagrams");
        endBatch();
        assertEquals(flushes + 1, transport.flushes, "nothing more to flush");
    }

    @Test
    void shouldSendTheEnginesMulticastToTheGroupsAddressAndFlushOncePerCall() {
        int flushes = transport.flushes;
        byte[] payload = {1, 2, 3};

        driver.engine().send(G, payload, 0, payload.length, driver.now());
        driver.afterEngineCall();

        assertEquals(MULTICAST, transport.sent.get(transport.sent.size() - 1).to());
        assertEquals(flushes + 1, transport.flushes);
        assertEquals(1, driver.engine().counters().get(EngineCounter.DATA_SENT));
        assertFalse(driver.engine().counters().get(NakCounter.NAKS_SENT) > 0);
    }

    @Test
    void shouldDeliverEveryMessageOfABundleByItsId() {
        receive(frame(FrameType.DATA, 3, BundleFormatTest.bundle(new byte[] {1}, new byte[0], new byte[] {3, 3})));
        process();

        assertEquals(List.of(3 * 4096L, 3 * 4096L + 1, 3 * 4096L + 2), delivered);
        assertArrayEquals(new byte[] {3, 3}, payloads.get(2));
        assertEquals(1, driver.engine().counters().get(EngineCounter.DATA_RECEIVED), "one datagram");
    }

    @Test
    void shouldCountEveryMalformedPayloadAndDeliverEveryOtherWhole() {
        // The fuzzing of BundleFormatFuzzTest, through the driver: what the format refuses is counted and reported
        // lost as a whole, what it accepts is delivered message by message, by id.
        SplittableRandom rng = new SplittableRandom(Fuzz.seed(0x44524956455246L));
        byte[] previous = BundleFormatTest.single(new byte[] {1});
        long malformed = 0;
        int inputs = Fuzz.inputs(100_000);
        for (long seqno = 0; seqno < inputs; seqno++) {
            byte[][] messages = new byte[1 + rng.nextInt(8)][];
            for (int m = 0; m < messages.length; m++) {
                messages[m] = new byte[rng.nextInt(110)];
                Arrays.fill(messages[m], (byte) m);
            }
            byte[] valid = BundleFormatTest.bundle(messages);
            byte[] payload = rng.nextInt(10) == 0 ? Fuzz.garbage(rng, rng.nextInt(64))
                    : Fuzz.mutate(rng, valid, previous, 3);
            payload = Arrays.copyOf(payload, Math.min(payload.length, 1_024));   // the engine's max payload
            previous = valid;
            delivered.clear();
            payloads.clear();
            receive(frame(FrameType.DATA, seqno, payload));
            process();
            List<byte[]> expected = BundleFormatFuzzTest.reference(payload);
            String what = "datagram " + seqno + " " + java.util.HexFormat.of().formatHex(payload);
            if (expected == null) {
                malformed++;
                assertEquals(List.of(-1 - seqno * 4096), delivered, what);
            } else {
                assertEquals(expected.size(), delivered.size(), what);
                for (int m = 0; m < expected.size(); m++) {
                    assertEquals(seqno * 4096 + m, delivered.get(m), what);
                    assertArrayEquals(expected.get(m), payloads.get(m), what);
                }
            }
            assertEquals(malformed, counters.get(DaemonCounter.MALFORMED_DATAGRAMS), what);
        }
        assertTrue(malformed > inputs / 10 && malformed < inputs * 9L / 10, malformed + " malformed of " + inputs);
    }

    @Test
    void shouldReportAMalformedDatagramLostAsAWholeAndDeliverNoneOfIt() {
        // Its first two entries are fine; the third's length runs past the end.
        receive(frame(FrameType.DATA, 2, new byte[] {1, 0, 1, 7, 0, 1, 8, 0, 9, 1}));
        receive(frame(FrameType.DATA, 3, new byte[] {5, 1, 2}));
        receive(frame(FrameType.DATA, 4, new byte[0]));
        process();
        assertEquals(List.of(), delivered, "reported in the stream's order: after seqnos 0 and 1");
        receive(frame(FrameType.DATA, 0, new byte[] {0, 1}));
        receive(frame(FrameType.DATA, 1, new byte[] {0, 2}));
        process();

        assertEquals(List.of(0L, 4096L, -1 - 2 * 4096L, -1 - 3 * 4096L, -1 - 4 * 4096L), delivered, "one LOST each");
        assertEquals(3, counters.get(DaemonCounter.MALFORMED_DATAGRAMS));
    }

    @Test
    void shouldDeliverALostThenRecoveredBundleOnceAndAGivenUpOneAsOneLost() {
        byte[] bundle = BundleFormatTest.bundle(new byte[] {1}, new byte[] {2}, new byte[] {3});
        dataDropsToCome = 2;
        receive(frame(FrameType.DATA, 0, bundle));
        receive(frame(FrameType.DATA, 1, bundle));
        receive(data(2));
        process();
        assertEquals(List.of(2 * 4096L), delivered);

        advance(100 * MS);
        receive(frame(FrameType.RETRANSMIT, 0, bundle));
        receive(frame(FrameType.RETRANSMIT, 0, bundle));
        process();
        assertEquals(List.of(2 * 4096L, 0L, 1L, 2L), delivered, "each message once, the duplicate dropped");

        for (int step = 0; step < 200 && delivered.size() < 5; step++) {
            advance(50 * MS);
        }
        assertEquals(List.of(2 * 4096L, 0L, 1L, 2L, -1 - 4096L), delivered,
                "one LOST names datagram 1, that is its three messages");
        receive(frame(FrameType.RETRANSMIT, 1, bundle));
        process();
        assertEquals(5, delivered.size(), "never delivered after its LOST");
    }

    @Test
    void shouldSendTheBatchsMessagesAsOneDatagramWithIdsAndDeliverThemLocallyEachAtOnce() {
        EngineDriver bundling = newDriver(1024, 0);
        transport.sent.clear();
        delivered.clear();

        assertEquals(0L, bundling.sendFromApplication(G, new byte[] {1}, null));
        assertEquals(1L, bundling.sendFromApplication(G, new byte[] {2}, null));
        assertEquals(List.of(0L, 1L), delivered, "local subscribers, per message, at once");
        assertEquals(List.of(), sentDatagrams());
        endBatch();

        assertEquals(1, sentDatagrams().size());
        assertArrayEquals(new byte[] {2}, sentDatagrams().get(0).get(1));
        assertEquals(4096L, bundling.sendFromApplication(G, new byte[] {3}, null), "the next datagram");
    }

    @Test
    void shouldSendTheOpenDatagramBeforeAMembershipChange() {
        EngineDriver bundling = newDriver(1024, 0);
        transport.sent.clear();
        bundling.sendFromApplication(G, new byte[] {1}, null);
        bundling.sendFromApplication(G, new byte[] {2}, null);

        bundling.applyEvent(io.ricochet.engine.MembershipEvent.leave(G, PEER), PEER_ADDRESS);

        assertEquals(1, sentDatagrams().size(), "sent before the view changed");
        assertEquals(2, sentDatagrams().get(0).size());
        endBatch();
        assertEquals(1, sentDatagrams().size());
    }

    @Test
    void shouldTakeANewDatagramOnlyAfterSendingTheOpenOne() {
        EngineDriver bundling = newDriver(1024, 0);
        transport.sent.clear();
        bundling.sendFromApplication(G, new byte[] {1}, null);
        assertTrue(bundling.joinsOpenDatagram(G, 100));
        assertFalse(bundling.joinsOpenDatagram(G + 1, 1), "another group");

        bundling.newDatagramReadyAtNs(G, timeNs);

        assertEquals(1, sentDatagrams().size(), "the engine's readiness then counts the open datagram");
        assertFalse(bundling.joinsOpenDatagram(G, 1));
    }
}
