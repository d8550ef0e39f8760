package io.ricochet.bench.compare;

import java.nio.file.Path;
import java.util.List;

/**
 * One trial: every member of {@code plans} (one system) run together, all in one fresh process or each in a process
 * of its own, started at once when all are ready. A fresh process per trial in both packagings: nothing a trial
 * leaves in a JVM (compiled code and its type profiles, heap, threads still closing) weighs on the next, and the
 * system measured second is not the one that pays for it. For Ricochet the trial's GMS partition runs in this JVM
 * in both packagings on loopback, in a process in the link's GMS namespace on a real link (it only hands out
 * memberships; its CPU is not counted in the members').
 */
public final class Trial {
    /** Beyond the trial's own time, how long members may take to report. */
    static final long REPORT_GRACE_SECONDS = 60;

    private Trial() {
    }

    /** Runs the trial and returns every member's result, in member order. */
    public static List<MemberResult> run(Packaging packaging, List<MemberPlan> plans, Path logs) throws Exception {
        return run(packaging, plans, logs, null);
    }

    /**
     * Runs the trial on {@code lab}'s link (each member process in its member's namespace, Ricochet's GMS in the
     * link's GMS namespace), or on loopback if {@code lab} is null.
     */
    public static List<MemberResult> run(Packaging packaging, List<MemberPlan> plans, Path logs, NetLab lab)
            throws Exception {
        if (plans.isEmpty() || plans.stream().map(MemberPlan::system).distinct().count() != 1) {
            throw new IllegalArgumentException("a trial needs members, all of one system");
        }
        if (lab != null && packaging == Packaging.INPROCESS) {
            throw new IllegalArgumentException("on a real link every member runs in a namespace of its own: use "
                    + "--packaging processes");
        }
        AutoCloseable gms = plans.get(0).system() == SystemKind.RICOCHET
                ? RicochetGms.start(plans.get(0), lab, logs) : null;
        try {
            List<List<MemberPlan>> processes = packaging == Packaging.INPROCESS
                    ? List.of(plans) : plans.stream().map(List::of).toList();
            return ChildMembers.run(processes, logs, members -> lab == null ? List.of()
                    : NetLab.inNamespace(NetLab.memberNs(members.get(0).id())));
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
