package io.ricochet.bench.compare;

import io.ricochet.bench.load.CpuClock;
import io.ricochet.bench.load.Pacer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One member's part of a trial, the same in a process of its own and in a shared JVM: start and join, wait until
 * every group holds every member, say ready, wait for go, then send (if it sends) through the warm-up and the
 * measured window, counting deliveries and process CPU at the window's edges and timing the messages sent in the
 * window, and wait the drain for the last recoveries before reporting.
 */
public final class MemberRun {
    /** How long a member may take to start and see every member in its groups. */
    static final long READY_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(120);
    private static final long PACE_TICK_MS = 1;

    /** How a member hears the trial's start and tells it is ready. */
    public interface Control {
        /** The member is up and sees every member in its groups. */
        void ready() throws Exception;

        /** Blocks until the trial starts. */
        void awaitGo() throws Exception;
    }

    private MemberRun() {
    }

    /**
     * Runs {@code member} (not started) as {@code plan} says and reports; the caller closes it (leaving dozens of
     * groups can take long and is no part of the trial).
     */
    public static MemberResult run(MemberPlan plan, GroupMember member, Control control) throws Exception {
        member.start();
        long deadline = System.nanoTime() + READY_TIMEOUT_NS;
        while (!member.ready()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("member " + plan.id() + " (" + plan.system().cliName()
                        + ") did not see all " + plan.members() + " members in its groups within "
                        + TimeUnit.NANOSECONDS.toSeconds(READY_TIMEOUT_NS) + " s");
            }
            Thread.sleep(50);
        }
        control.ready();
        control.awaitGo();
        long startNs = System.nanoTime();
        long windowStartNs = startNs + seconds(plan.warmupSeconds());
        long windowEndNs = windowStartNs + seconds(plan.seconds());
        member.stats().timeWindow(windowStartNs, windowEndNs);
        AtomicLong sent = new AtomicLong();
        Thread sender = null;
        Exception[] sendError = new Exception[1];
        if (plan.sends()) {
            sender = new Thread(() -> {
                try {
                    send(plan, member, startNs, windowEndNs, sent);
                } catch (Exception e) {
                    sendError[0] = e;
                }
            }, "sender-" + plan.id());
            sender.start();
        }
        sleepUntil(windowStartNs);
        long delivered0 = member.stats().delivered();
        long cpu0 = CpuClock.processNanos();
        long measured0 = System.nanoTime();
        sleepUntil(windowEndNs);
        long delivered1 = member.stats().delivered();
        long cpu1 = CpuClock.processNanos();
        long measured1 = System.nanoTime();
        long failed = 0;
        if (sender != null) {
            sender.join();
            if (sendError[0] != null) {
                throw sendError[0];
            }
            failed = member.flush();
        }
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(seconds(plan.drainSeconds())));
        DeliveryStats s = member.stats();
        DropLog d = member.drops();
        return new MemberResult(plan.id(), sent.get() - failed, failed, s.delivered(), delivered1 - delivered0,
                (measured1 - measured0) / 1e9, CpuClock.secondsBetween(cpu0, cpu1), s.perSender(),
                d.droppedCount(), d.pendingCount(), d.forgottenCount(), s.malformed(), s.recoveryLatencies(),
                s.allLatencies(), member.counters());
    }

    /** Sends round-robin over the member's groups until {@code endNs}: flat out, or paced. */
    private static void send(MemberPlan plan, GroupMember member, long startNs, long endNs, AtomicLong sent)
            throws Exception {
        List<Integer> groups = plan.groups();
        Pacer pacer = plan.sending() == MemberPlan.Sending.PACED
                ? new Pacer(plan.rate(), Pacer.maxBatchFor(plan.rate(), TimeUnit.MILLISECONDS.toNanos(10), 4)) : null;
        long counter = 0;
        long now;
        while ((now = System.nanoTime()) < endNs) {
            int due = pacer == null ? 1 : pacer.batch(now - startNs);
            for (int i = 0; i < due; i++) {
                int group = groups.get((int) (counter % groups.size()));
                member.send(group, Payload.encode(plan.id(), counter, System.nanoTime(), plan.payloadBytes()));
                counter++;
                sent.incrementAndGet();
            }
            if (pacer != null) {
                pacer.sent(due);
                Thread.sleep(PACE_TICK_MS);
            }
        }
    }

    private static long seconds(double s) {
        return (long) (s * 1e9);
    }

    private static void sleepUntil(long deadlineNs) throws InterruptedException {
        long left;
        while ((left = deadlineNs - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
        }
    }
}
