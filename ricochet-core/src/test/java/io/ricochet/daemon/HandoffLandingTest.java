package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.ricochet.auth.Authentication;
import io.ricochet.engine.Counters;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The receive thread's handoff: whole batches to the engine, control first, the engine asked once per batch, nothing
 * lost between the two threads, and the receive thread's counts in the daemon's counters.
 */
class HandoffLandingTest {
    private static final int SELF = 1;
    private static final int PEER = 2;

    private final Counters daemonCounters = new Counters(DaemonCounter.ALL);
    private final Counters counts = new Counters(DaemonCounter.ALL);
    private final ArrayDeque<Runnable> engineTasks = new ArrayDeque<>();
    private final List<List<Integer>> batches = new ArrayList<>();

    /** The engine's side: records each batch's datagram ids, in the order it gets them. */
    private final Landing.Engine engine = new Landing.Engine() {
        @Override
        public void process(ReceiveBuffer batch) {
            List<Integer> ids = new ArrayList<>();
            batch.drain((frame, length) -> {
                ids.add(id(frame));
                return frame;
            });
            batches.add(ids);
        }

        @Override
        public Counters counters() {
            return daemonCounters;
        }
    };

    private HandoffLanding landing(int halfCapacity, Landing.Engine to, java.util.concurrent.Executor on) {
        return new HandoffLanding(SELF, Authentication.insecure().newGuard(SELF), to, on, counts,
                new ReceiveBuffer(halfCapacity, 128, new SplittableRandom(1), counts),
                new ReceiveBuffer(halfCapacity, 128, new SplittableRandom(2), counts));
    }

    /** A frame of {@code type} from {@code source} carrying {@code id} after its header. */
    private static byte[] frame(int type, int source, int id) {
        ByteBuffer b = ByteBuffer.allocate(HeaderFlyweight.HEADER_LENGTH + 4);
        b.put(HeaderFlyweight.TYPE_OFFSET, (byte) type);
        b.putInt(HeaderFlyweight.SOURCE_OFFSET, source);
        b.putInt(HeaderFlyweight.HEADER_LENGTH, id);
        return b.array();
    }

    private static int id(byte[] frame) {
        return ByteBuffer.wrap(frame).getInt(HeaderFlyweight.HEADER_LENGTH);
    }

    private static void land(HandoffLanding landing, int type, int source, int id) {
        landing.land(Unpooled.wrappedBuffer(frame(type, source, id)));
    }

    private void runEngine() {
        for (Runnable task = engineTasks.poll(); task != null; task = engineTasks.poll()) {
            task.run();
        }
    }

    @Test
    void aBatchReachesTheEngineWholeInTheBuffersOrderAndTheEngineIsAskedOnce() {
        HandoffLanding landing = landing(16, engine, engineTasks::add);
        land(landing, FrameType.DATA, PEER, 1);
        land(landing, FrameType.REPAIR, PEER, 2);
        land(landing, FrameType.DATA, PEER, 3);
        landing.endOfWakeUp();
        land(landing, FrameType.NAK, PEER, 4);
        landing.endOfWakeUp();
        assertEquals(1, engineTasks.size(), "asked once until it takes the batch");
        assertEquals(4, landing.buffered());

        runEngine();
        assertEquals(List.of(List.of(4, 1, 3, 2)), batches, "one batch: control (the NAK), data, then the repair");
        assertEquals(0, landing.buffered());

        land(landing, FrameType.DATA, PEER, 5);
        landing.endOfWakeUp();
        runEngine();
        assertEquals(List.of(5), batches.get(1), "a datagram landed after the swap asks again");
    }

    @Test
    void ourOwnAndMalformedDatagramsAreCountedAndWakeNoEngine() {
        HandoffLanding landing = landing(16, engine, engineTasks::add);
        land(landing, FrameType.DATA, SELF, 1);
        landing.land(Unpooled.wrappedBuffer(new byte[3]));
        landing.endOfWakeUp();
        assertTrue(engineTasks.isEmpty());
        assertEquals(0, daemonCounters.get(DaemonCounter.OWN_DATAGRAMS), "not yet folded");

        landing.foldCounters();
        assertEquals(1, daemonCounters.get(DaemonCounter.OWN_DATAGRAMS));
        assertEquals(1, daemonCounters.get(DaemonCounter.BAD_DATAGRAM_SIZE));
        landing.foldCounters();
        assertEquals(1, daemonCounters.get(DaemonCounter.OWN_DATAGRAMS), "each count folded once");
    }

    @Test
    void aFullHalfDropsARandomDatagramCountedAtTheSwap() {
        HandoffLanding landing = landing(4, engine, engineTasks::add);
        for (int id = 0; id < 6; id++) {
            land(landing, FrameType.DATA, PEER, id);
        }
        landing.endOfWakeUp();
        runEngine();
        assertEquals(4, batches.get(0).size());
        assertEquals(2, daemonCounters.get(DaemonCounter.RX_BUFFER_RANDOM_DROPS));
    }

    @Test
    void nothingIsLostOrDuplicatedBetweenTheTwoThreads() throws Exception {
        ExecutorService engineThread = Executors.newSingleThreadExecutor();
        Set<Integer> seen = new HashSet<>();
        long[] duplicates = {0};
        Landing.Engine counting = new Landing.Engine() {
            @Override
            public void process(ReceiveBuffer batch) {
                batch.drain((frame, length) -> {
                    if (!seen.add(id(frame))) {
                        duplicates[0]++;
                    }
                    return frame;
                });
            }

            @Override
            public Counters counters() {
                return daemonCounters;
            }
        };
        HandoffLanding landing = landing(64, counting, engineThread);
        int datagrams = 200_000;
        try {
            for (int id = 0; id < datagrams; id++) {
                land(landing, id % 5 == 0 ? FrameType.REPAIR : FrameType.DATA, PEER, id);
                if (id % 7 == 0) {
                    landing.endOfWakeUp();
                }
            }
            landing.endOfWakeUp();
            // The last batch is taken by a task already asked for; run the fold after it, on the engine's thread.
            engineThread.submit(landing::foldCounters).get(30, TimeUnit.SECONDS);
        } finally {
            engineThread.shutdown();
            assertTrue(engineThread.awaitTermination(30, TimeUnit.SECONDS));
        }
        assertEquals(0, duplicates[0]);
        assertEquals(datagrams, seen.size() + daemonCounters.get(DaemonCounter.RX_BUFFER_RANDOM_DROPS),
                "every datagram processed once or counted as dropped");
    }
}
