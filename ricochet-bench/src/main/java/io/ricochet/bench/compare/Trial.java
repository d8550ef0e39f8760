package io.ricochet.bench.compare;

import io.ricochet.gms.GmsServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One trial: every member of {@code plans} (one system) run together, in this JVM or each in a process of its own,
 * started at once when all are ready. For Ricochet the trial's GMS partition runs in this JVM in both packagings
 * (it only hands out memberships; its CPU is not counted in the members').
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
            return packaging == Packaging.INPROCESS ? inProcess(plans) : ChildMembers.run(plans, logs);
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

    private static List<MemberResult> inProcess(List<MemberPlan> plans) throws Exception {
        CountDownLatch ready = new CountDownLatch(plans.size());
        CountDownLatch go = new CountDownLatch(1);
        MemberRun.Control control = new MemberRun.Control() {
            @Override
            public void ready() {
                ready.countDown();
            }

            @Override
            public void awaitGo() throws InterruptedException {
                go.await();
            }
        };
        ExecutorService threads = Executors.newFixedThreadPool(plans.size());
        List<GroupMember> members = new ArrayList<>();
        try {
            List<Future<MemberResult>> runs = new ArrayList<>();
            for (MemberPlan plan : plans) {
                GroupMember member = plan.system().newMember(plan);
                members.add(member);
                runs.add(threads.submit(() -> MemberRun.run(plan, member, control)));
            }
            long readyBy = System.nanoTime() + MemberRun.READY_TIMEOUT_NS + TimeUnit.SECONDS.toNanos(10);
            while (!ready.await(100, TimeUnit.MILLISECONDS)) {
                for (Future<MemberResult> run : runs) {
                    if (run.isDone()) {
                        run.get(); // a member that ended before go failed: its exception says why
                    }
                }
                if (System.nanoTime() > readyBy) {
                    throw new IllegalStateException(ready.getCount() + " members not ready in time");
                }
            }
            go.countDown();
            List<MemberResult> results = new ArrayList<>();
            long seconds = trialSeconds(plans.get(0)) + REPORT_GRACE_SECONDS;
            for (Future<MemberResult> run : runs) {
                results.add(run.get(seconds, TimeUnit.SECONDS));
            }
            return results;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            threads.shutdownNow();
            threads.awaitTermination(30, TimeUnit.SECONDS);
            closeAll(members);
        }
    }

    /** Closes every member at once (each leaves its groups), waiting a bounded time. */
    private static void closeAll(List<GroupMember> members) throws InterruptedException {
        ExecutorService closing = Executors.newFixedThreadPool(Math.max(1, members.size()));
        members.forEach(m -> closing.execute(m::close));
        closing.shutdown();
        if (!closing.awaitTermination(REPORT_GRACE_SECONDS, TimeUnit.SECONDS)) {
            System.err.println("some members were still closing after " + REPORT_GRACE_SECONDS + " s");
        }
    }
}
