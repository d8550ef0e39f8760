package io.ricochet.bench.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Several members of a trial run together in this JVM, each on a thread of its own: ready when all are ready, started
 * together on the trial's go. A member process ({@link MemberCommand}) runs its one member, or all of a trial's
 * members in the {@code inprocess} packaging, through this.
 */
final class SharedJvmMembers {
    /** Hears the members' results, before they are closed (leaving dozens of groups can take long). */
    interface Report {
        void results(List<MemberResult> results) throws Exception;
    }

    private SharedJvmMembers() {
    }

    /**
     * Runs every member of {@code plans}, telling {@code trial} when all are ready and waiting for its go, hands their
     * results in plan order to {@code report}, then closes the members.
     */
    static void run(List<MemberPlan> plans, MemberRun.Control trial, Report report) throws Exception {
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
            trial.ready();
            trial.awaitGo();
            go.countDown();
            List<MemberResult> results = new ArrayList<>();
            long seconds = Trial.trialSeconds(plans.get(0)) + Trial.REPORT_GRACE_SECONDS;
            for (Future<MemberResult> run : runs) {
                results.add(run.get(seconds, TimeUnit.SECONDS));
            }
            report.results(results);
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
        if (!closing.awaitTermination(Trial.REPORT_GRACE_SECONDS, TimeUnit.SECONDS)) {
            System.err.println("some members were still closing after " + Trial.REPORT_GRACE_SECONDS + " s");
        }
    }
}
