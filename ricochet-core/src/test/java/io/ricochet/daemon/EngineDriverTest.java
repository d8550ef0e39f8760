package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.api.DeliveryListener;
import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Frames;
import io.ricochet.engine.PacketId;
import io.ricochet.loss.LossInjector;
import io.ricochet.loss.LossScope;
import io.ricochet.nak.NakCounter;
import io.ricochet.ricochet.RicochetConfig;
import io.ricochet.ricochet.RicochetProtocol;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.PacketRefFlyweight;
import java.net.InetSocketAddress;
import java.util.ArrayList;
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
    private long timeNs = 1_000 * MS;
    private int clockReads;
    private boolean dropNextData;

    private final DeliveryListener app = new DeliveryListener() {
        @Override
        public void delivered(int origin, int group, long seqno, byte[] payload) {
            delivered.add(seqno);
        }

        @Override
        public void lost(int origin, int group, long seqno) {
            delivered.add(-1 - seqno);
        }
    };

    private final EngineDriver driver = newDriver();

    private EngineDriver newDriver() {
        channel.freezeTime();
        ReceiveBuffer rx = new ReceiveBuffer(64, 2048, new SplittableRandom(1), counters);
        LossInjector injector = new LossInjector(() -> {
            boolean drop = dropNextData;
            dropNextData = false;
            return drop;
        }, LossScope.DATA, SELF);
        EngineDriver d = new EngineDriver(SELF, channel.eventLoop(), this::clock, rx, injector, counters);
        RicochetConfig config = RicochetConfig.builder().build();
        d.attach(new RicochetProtocol(config).create(SELF, new SplittableRandom(2), d), transport);
        Map<Integer, InetSocketAddress> members = new LinkedHashMap<>();
        members.put(SELF, new InetSocketAddress("127.0.0.1", 7001));
        members.put(PEER, PEER_ADDRESS);
        d.applyView(G, MULTICAST, members, Map.of());
        d.addListener(G, app);
        return d;
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

    private void receive(byte[] frame) {
        driver.receive(frame, frame.length, frame.length, PEER_ADDRESS);
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void shouldProcessAReadBurstAtOneClockReadingAndDeliverToTheSubscribers() {
        clockReads = 0;

        receive(Frames.data(PEER, G, 0));
        receive(Frames.data(PEER, G, 1));
        receive(Frames.data(PEER, G, 2));
        assertEquals(List.of(), delivered, "nothing reaches the engine before the burst ends");
        driver.process();

        assertEquals(List.of(0L, 1L, 2L), delivered);
        assertEquals(1, clockReads, "one clock reading for the whole burst");
        assertEquals(3, driver.engine().counters().get(EngineCounter.DATA_RECEIVED));
    }

    @Test
    void shouldMeasureRecoveryFromTheInjectedDropThroughTheOneTimer() {
        dropNextData = true;
        receive(Frames.data(PEER, G, 0));
        receive(Frames.data(PEER, G, 1));
        driver.process();
        assertEquals(1, counters.get(DaemonCounter.INJECTED_DROPS));
        assertEquals(List.of(1L), delivered);
        transport.sent.clear();

        advance(100 * MS);

        List<RecordingTransport.Sent> naks = transport.sent.stream().filter(s -> s.type() == FrameType.NAK).toList();
        assertEquals(1, naks.size(), "the NAK timeout fired through the driver's timer");
        assertEquals(PEER_ADDRESS, naks.get(0).to());
        assertEquals(0, new PacketRefFlyweight().wrap(naks.get(0).frame(), 0).seqno());

        advance(3 * MS);
        receive(Frames.data(FrameType.RETRANSMIT, PEER, new PacketId(PEER, G, 0)));
        driver.process();

        assertEquals(List.of(1L, 0L), delivered);
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
}
