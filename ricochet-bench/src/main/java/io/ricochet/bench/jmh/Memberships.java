package io.ricochet.bench.jmh;

import io.ricochet.engine.MembershipEvent;
import io.ricochet.sim.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The (n, d, s) grouping pattern of the paper's section 5 ({@link Workload#generate}) with a fixed seed, seen from
 * node 0: its groups and the JOIN events its group membership service would push.
 */
final class Memberships {
    static final int NODES = 64;
    static final int GROUP_SIZE = 10;
    static final long SEED = 20_070_411L;
    /** The node whose engine, view or plan is measured. */
    static final int SELF = 0;

    private Memberships() {
    }

    static Workload workload(int degree) {
        return Workload.generate(NODES, degree, GROUP_SIZE, 1_000, new SplittableRandom(SEED));
    }

    /** JOINs of node 0 to its groups first, then of every other member of those groups. */
    static List<MembershipEvent> joinsSeenBy(Workload workload, int self) {
        List<MembershipEvent> events = new ArrayList<>();
        for (int g : workload.groupsOfNode()[self]) {
            events.add(MembershipEvent.join(g, self));
        }
        for (int g : workload.groupsOfNode()[self]) {
            for (int node : workload.membersOfGroup()[g]) {
                if (node != self) {
                    events.add(MembershipEvent.join(g, node));
                }
            }
        }
        return events;
    }

    /** Members of {@code group} other than {@code self}. */
    static int[] others(Workload workload, int group, int self) {
        return java.util.Arrays.stream(workload.membersOfGroup()[group]).filter(n -> n != self).toArray();
    }
}
