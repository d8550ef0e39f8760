package io.ricochet.bench.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.bench.BenchMain;
import io.ricochet.bench.load.JsonFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The members of a trial in JVMs of their own: children of this process, started from this JVM's class path
 * ({@code bench vs-jgroups member --plan JSON ...}), one member each or several in one, each child logging to
 * {@code <logs>/<system>-member-<id>.log} (one member) or {@code <logs>/<system>-members.log} (several). A child
 * prints {@code READY} when all its members see every member, starts on a {@code GO} line on its standard input and
 * prints a {@code RESULT <json>} line per member. Children left at the end (a failure) are killed, each by its own
 * handle.
 */
final class ChildMembers {
    static final String READY = "READY";
    static final String GO = "GO";
    static final String RESULT = "RESULT ";
    private static final ObjectMapper JSON = JsonFiles.MAPPER;

    private ChildMembers() {
    }

    /**
     * Runs each list of {@code processes} in a child of its own and returns every member's result, in the order of
     * the members in {@code processes}.
     */
    static List<MemberResult> run(List<List<MemberPlan>> processes, Path logs) throws Exception {
        return run(processes, logs, members -> List.of());
    }

    /** Children still running, killed by a shutdown hook if this JVM is stopped (ctrl-C) before it ends them. */
    private static final java.util.Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LIVE.forEach(Process::destroy);
            for (Process p : LIVE) {
                try {
                    if (!p.waitFor(5, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    p.destroyForcibly();
                }
            }
        }, "vs-jgroups-children"));
    }

    /** Kills {@code child} (by its own handle) if this JVM is stopped before it ends. */
    static void track(Process child) {
        LIVE.add(child);
    }

    /** {@code child} has ended. */
    static void untrack(Process child) {
        LIVE.remove(child);
    }

    /**
     * As above, each child's command line after {@code prefix} of its members (e.g. {@code ip netns exec NS}: on a real
     * link, each member process runs in its own network namespace).
     */
    static List<MemberResult> run(List<List<MemberPlan>> processes, Path logs,
                                  java.util.function.Function<List<MemberPlan>, List<String>> prefix)
            throws Exception {
        Files.createDirectories(logs);
        List<MemberPlan> plans = processes.stream().flatMap(List::stream).toList();
        List<Process> children = new ArrayList<>();
        Map<Integer, MemberResult> results = new ConcurrentHashMap<>();
        CountDownLatch ready = new CountDownLatch(processes.size());
        CountDownLatch reported = new CountDownLatch(plans.size());
        try {
            for (List<MemberPlan> members : processes) {
                Path log = logs.resolve(logName(members));
                List<String> command = new ArrayList<>(prefix.apply(members));
                command.addAll(command(members));
                Process child = new ProcessBuilder(command).redirectError(log.toFile()).start();
                track(child);
                children.add(child);
                Thread reader = new Thread(() -> read(child, ready, reported, results),
                        "member-" + members.get(0).id() + "-out");
                reader.setDaemon(true);
                reader.start();
            }
            long readyBy = System.nanoTime() + MemberRun.READY_TIMEOUT_NS + TimeUnit.SECONDS.toNanos(30);
            while (!ready.await(100, TimeUnit.MILLISECONDS)) {
                failIfExited(children, processes, logs, results);
                if (System.nanoTime() > readyBy) {
                    throw new IllegalStateException(ready.getCount() + " member processes not ready in time; "
                            + "see the logs in " + logs);
                }
            }
            for (Process child : children) {
                OutputStream in = child.getOutputStream();
                in.write((GO + "\n").getBytes(StandardCharsets.US_ASCII));
                in.flush();
            }
            long seconds = Trial.trialSeconds(plans.get(0)) + Trial.REPORT_GRACE_SECONDS;
            if (!reported.await(seconds, TimeUnit.SECONDS)) {
                failIfExited(children, processes, logs, results);
                throw new IllegalStateException("member processes did not report within " + seconds + " s; see "
                        + logs);
            }
            List<MemberResult> ordered = new ArrayList<>();
            plans.forEach(p -> ordered.add(results.get(p.id())));
            return ordered;
        } finally {
            for (Process child : children) {
                child.destroy();
            }
            for (Process child : children) {
                if (!child.waitFor(10, TimeUnit.SECONDS)) {
                    child.destroyForcibly();
                }
                untrack(child);
            }
        }
    }

    /** The log file of a child running {@code members}. */
    static String logName(List<MemberPlan> members) {
        String system = members.get(0).system().cliName();
        return members.size() == 1 ? system + "-member-" + members.get(0).id() + ".log" : system + "-members.log";
    }

    private static void failIfExited(List<Process> children, List<List<MemberPlan>> processes, Path logs,
                                     Map<Integer, MemberResult> results) {
        for (int i = 0; i < children.size(); i++) {
            Process child = children.get(i);
            List<MemberPlan> members = processes.get(i);
            if (!child.isAlive() && !members.stream().allMatch(p -> results.containsKey(p.id()))) {
                throw new IllegalStateException("the process of member" + (members.size() == 1 ? " " : "s ")
                        + members.stream().map(p -> Integer.toString(p.id())).collect(Collectors.joining(", "))
                        + " exited with status " + child.exitValue() + " before reporting; see "
                        + logs.resolve(logName(members)));
            }
        }
    }

    private static void read(Process child, CountDownLatch ready, CountDownLatch reported,
                             Map<Integer, MemberResult> results) {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.equals(READY)) {
                    ready.countDown();
                } else if (line.startsWith(RESULT)) {
                    MemberResult result = JSON.readValue(line.substring(RESULT.length()), MemberResult.class);
                    results.put(result.member(), result);
                    reported.countDown();
                }
            }
        } catch (IOException e) {
            // the child is gone: failIfExited reports it
        }
    }

    /** Extra JVM options for every member process, both systems alike (e.g. a JFR recording), split on spaces. */
    static final String MEMBER_JAVA_OPTS = "RICOCHET_MEMBER_JAVA_OPTS";

    /** The heap of a member process: this much per member in it, both systems and packagings alike. */
    static final int HEAP_MB_PER_MEMBER = 512;

    /**
     * The collector options the package's daemon unit runs with (scripts/systemd/ricochetd.service: ZGC, pauses under
     * a millisecond), given to a process of Ricochet members so that the harness measures what ships. Under the JVM's
     * default (G1) the members paused 26-88 ms with their packet stores live, and the p99 at 35 000 msgs/s was about
     * three times ZGC's; JGroups' members keep the default, which measured the same as ZGC for them
     * (docs/results.md, "The members' collector").
     */
    static final List<String> RICOCHET_JVM_OPTIONS = List.of("-Xms256m", "-XX:+UseZGC", "-XX:MetaspaceSize=96m");

    /**
     * The command line of the process of {@code members}: this JVM's java and class path, a heap of
     * {@link #HEAP_MB_PER_MEMBER} per member, for Ricochet's members the daemon unit's collector
     * ({@link #RICOCHET_JVM_OPTIONS}), the options of {@link #MEMBER_JAVA_OPTS} if set (after them, so they win), the
     * member command with a plan per member.
     */
    static List<String> command(List<MemberPlan> members) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx" + HEAP_MB_PER_MEMBER * members.size() + "m"));
        if (members.stream().anyMatch(m -> m.system() == SystemKind.RICOCHET)) {
            command.addAll(RICOCHET_JVM_OPTIONS);
        }
        String extra = System.getenv(MEMBER_JAVA_OPTS);
        if (extra != null && !extra.isBlank()) {
            command.addAll(List.of(extra.strip().split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), BenchMain.class.getName(),
                VsJGroupsCommand.NAME, MemberCommand.NAME));
        for (MemberPlan plan : members) {
            command.addAll(List.of("--plan", JSON.writeValueAsString(plan)));
        }
        return command;
    }
}
