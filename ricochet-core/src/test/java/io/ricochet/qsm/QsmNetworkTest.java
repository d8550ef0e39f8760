package io.ricochet.qsm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counter;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * QSM engines of nodes 1..n, all in group 7, on a hand-driven network: every step, due timers fire, then the frames
 * in flight arrive; the test's drop rule, asked as each frame is sent, loses the ones it names. Deterministic.
 */
abstract class QsmNetworkTest {
    static final int GROUP = 7;
    static final long STEP_NS = 100_000;

    /** A frame in flight, and who receives it. */
    record Flight(int from, int to, byte[] frame) {
    }

    final int[] nodes;
    final QsmEngine[] engines;
    final RecordingOutbox[] outboxes;
    final List<Flight> wire = new ArrayList<>();
    final List<Flight> tokens = new ArrayList<>();
    long nowNs;
    Predicate<Flight> drop = f -> false;

    QsmNetworkTest(int n) {
        nodes = new int[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = i + 1;
        }
        engines = new QsmEngine[n];
        outboxes = new RecordingOutbox[n];
    }

    void start(QsmConfig config) {
        for (int i = 0; i < nodes.length; i++) {
            outboxes[i] = new RecordingOutbox();
            engines[i] = new QsmEngine(nodes[i], config, outboxes[i]);
            for (int node : nodes) {
                engines[i].onMembership(MembershipEvent.join(GROUP, node), 0);
            }
        }
    }

    void start() {
        start(QsmConfig.builder().maxPayload(64).build());
    }

    QsmEngine engine(int node) {
        return engines[node - 1];
    }

    RecordingOutbox outbox(int node) {
        return outboxes[node - 1];
    }

    void send(int node, int count) {
        for (int i = 0; i < count; i++) {
            engine(node).send(GROUP, new byte[] {(byte) node, (byte) i}, 0, 2, nowNs);
        }
        collect();
    }

    /** Moves every frame sent so far onto the wire (multicasts to every other member). */
    void collect() {
        for (int i = 0; i < nodes.length; i++) {
            for (RecordingOutbox.Sent s : outboxes[i].drain()) {
                if (s.type() == FrameType.QSM_TOKEN) {
                    tokens.add(new Flight(nodes[i], s.to(), s.frame()));
                }
                if (s.multicast()) {
                    for (int node : nodes) {
                        if (node != nodes[i]) {
                            fly(new Flight(nodes[i], node, s.frame()));
                        }
                    }
                } else {
                    fly(new Flight(nodes[i], s.to(), s.frame()));
                }
            }
        }
    }

    /** A frame goes on the wire unless the test's drop rule, asked as it is sent, loses it. */
    private void fly(Flight f) {
        if (!drop.test(f)) {
            wire.add(f);
        }
    }

    /** Runs the ring for {@code ns}: timers due fire, then frames in flight arrive, every step. */
    void run(long ns) {
        long end = nowNs + ns;
        while (nowNs < end) {
            nowNs += STEP_NS;
            for (QsmEngine e : engines) {
                if (e.nextDeadlineNs() <= nowNs) {
                    e.onTimer(nowNs);
                }
            }
            collect();
            List<Flight> flying = new ArrayList<>(wire);
            wire.clear();
            for (Flight f : flying) {
                engine(f.to()).onPacket(f.frame(), 0, f.frame().length, nowNs);
            }
            collect();
        }
    }

    /** Runs the ring in steps until the last token passed satisfies {@code last}; fails after {@code ns}. */
    void runUntilToken(Predicate<QsmTokenFlyweight> last, long ns) {
        long end = nowNs + ns;
        while (tokens.isEmpty() || !last.test(new QsmTokenFlyweight().wrap(tokens.get(tokens.size() - 1).frame(), 0))) {
            assertTrue(nowNs < end, "no such token within " + ns + " ns");
            run(STEP_NS);
        }
    }

    long count(int node, Counter counter) {
        return engine(node).counters().get(counter);
    }

    /** The sum of {@code counter} over every node. */
    long total(Counter counter) {
        long sum = 0;
        for (int node : nodes) {
            sum += count(node, counter);
        }
        return sum;
    }

    static boolean isData(Flight f, int to, long seqno) {
        return f.frame()[3] == FrameType.DATA && f.to() == to
                && Bytes.getLong(f.frame(), DataFlyweight.SEQNO_OFFSET) == seqno;
    }
}
