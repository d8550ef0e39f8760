package io.ricochet.bench.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.bench.BenchMain;
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

/**
 * The members of a trial each in a JVM of its own: children of this process, started from this JVM's class path
 * ({@code bench vs-jgroups member --plan JSON}), each logging to {@code <logs>/<system>-member-<id>.log}. A child
 * prints {@code READY} when it sees every member, starts on a {@code GO} line on its standard input and prints
 * {@code RESULT <json>}. Children left at the end (a failure) are killed, each by its own handle.
 */
final class ChildMembers {
    static final String READY = "READY";
    static final String GO = "GO";
    static final String RESULT = "RESULT ";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ChildMembers() {
    }

    static List<MemberResult> run(List<MemberPlan> plans, Path logs) throws Exception {
        Files.createDirectories(logs);
        List<Process> children = new ArrayList<>();
        Map<Integer, MemberResult> results = new ConcurrentHashMap<>();
        CountDownLatch ready = new CountDownLatch(plans.size());
        CountDownLatch reported = new CountDownLatch(plans.size());
        try {
            for (MemberPlan plan : plans) {
                Path log = logs.resolve(plan.system().cliName() + "-member-" + plan.id() + ".log");
                Process child = new ProcessBuilder(command(plan)).redirectError(log.toFile()).start();
                children.add(child);
                Thread reader = new Thread(() -> read(child, plan.id(), ready, reported, results),
                        "member-" + plan.id() + "-out");
                reader.setDaemon(true);
                reader.start();
            }
            long readyBy = System.nanoTime() + MemberRun.READY_TIMEOUT_NS + TimeUnit.SECONDS.toNanos(30);
            while (!ready.await(100, TimeUnit.MILLISECONDS)) {
                failIfExited(children, plans, logs, results);
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
                failIfExited(children, plans, logs, results);
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
            }
        }
    }

    private static void failIfExited(List<Process> children, List<MemberPlan> plans, Path logs,
                                     Map<Integer, MemberResult> results) {
        for (int i = 0; i < children.size(); i++) {
            Process child = children.get(i);
            int id = plans.get(i).id();
            if (!child.isAlive() && !results.containsKey(id)) {
                throw new IllegalStateException("member " + id + " exited with status " + child.exitValue()
                        + " before reporting; see " + logs.resolve(plans.get(i).system().cliName() + "-member-"
                        + id + ".log"));
            }
        }
    }

    private static void read(Process child, int id, CountDownLatch ready, CountDownLatch reported,
                             Map<Integer, MemberResult> results) {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.equals(READY)) {
                    ready.countDown();
                } else if (line.startsWith(RESULT)) {
                    results.put(id, JSON.readValue(line.substring(RESULT.length()), MemberResult.class));
                    reported.countDown();
                }
            }
        } catch (IOException e) {
            // the child is gone: failIfExited reports it
        }
    }

    /** Extra JVM options for every member process, both systems alike (e.g. a JFR recording), split on spaces. */
    static final String MEMBER_JAVA_OPTS = "RICOCHET_MEMBER_JAVA_OPTS";

    /**
     * The command line of {@code plan}'s process: this JVM's java and class path, the options of
     * {@link #MEMBER_JAVA_OPTS} if set, the member command.
     */
    static List<String> command(MemberPlan plan) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new java.util.ArrayList<>(List.of(java, "-Xmx512m"));
        String extra = System.getenv(MEMBER_JAVA_OPTS);
        if (extra != null && !extra.isBlank()) {
            command.addAll(List.of(extra.strip().split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), BenchMain.class.getName(),
                VsJGroupsCommand.NAME, MemberCommand.NAME, "--plan", JSON.writeValueAsString(plan)));
        return command;
    }
}
