package io.ricochet.bench.compare;

import io.ricochet.gms.GmsServer;
import java.nio.file.Path;
import java.util.List;

/**
 * One trial: every member of {@code plans} (one system) run together, all in one fresh process or each in a process
 * of its own, started at once when all are ready. A fresh process per trial in both packagings: nothing a trial
 * leaves in a JVM (compiled code and its type profiles, heap, threads still closing) weighs on the next, and the
 * system measured second is not the one that pays for it. For Ricochet the trial's GMS partition runs in this JVM
 * in both packagings (it only hands out memberships; its CPU is not counted in the members').
 */
public final class Trial {
    /** Beyond the trial's own time, how long members may take to report. */
    static final long REPORT_GRACE_SECONDS = 60;

    private Trial() {
    }

    /** Runs the trial and returns every member's result, in member order. */
    public static List<MemberResult> run(Packaging packaging, List<MemberPlan> plans, Path logs) throws Exception {
        if (plans.isEmpty() || plans.stream().map(MemberPlan::system).distinct().count() != 1) {
            throw new IllegalArgumentException("a trial needs members, all of one system");
        }
        GmsServer gms = plans.get(0).system() == SystemKind.RICOCHET ? RicochetGms.start(plans.get(0)) : null;
        try {
            List<List<MemberPlan>> processes = packaging == Packaging.INPROCESS
                    ? List.of(plans) : plans.stream().map(List::of).toList();
            return ChildMembers.run(processes, logs);
        } finally {
            if (gms != null) {
                gms.close();
            }
        }
    }

    /** Seconds a member needs from go to its report. */
    static long trialSeconds(MemberPlan plan) {
        return (long) Math.ceil(plan.warmupSeconds() + plan.seconds() + plan.drainSeconds());
    }
}
