package io.ricochet.bench.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.bench.load.JsonFiles;
import io.ricochet.daemon.LeakDetection;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench vs-jgroups member}: the members of a trial that share a process (one member, or all of them in the
 * {@code inprocess} packaging), started by the trial ({@link ChildMembers}): prints {@code READY} when every one of
 * them is ready, waits for {@code GO} on its standard input, prints one {@code RESULT <json>} line per member.
 */
@Command(name = MemberCommand.NAME, hidden = true,
        description = "Members of a vs-jgroups trial in a process of their own (started by the experiments).")
public final class MemberCommand implements Callable<Integer> {
    /** The command's name. */
    public static final String NAME = "member";

    @Spec
    private CommandSpec spec;

    @Option(names = "--plan", paramLabel = "JSON", required = true,
            description = "a member's plan (MemberPlan); repeat it for several members in this process")
    private List<String> planJson;

    @Override
    public Integer call() throws Exception {
        LeakDetection.offUnlessSet(); // a member process runs its daemons as a daemon's process does
        ObjectMapper json = JsonFiles.MAPPER;
        List<MemberPlan> plans = new ArrayList<>();
        for (String text : planJson) {
            try {
                plans.add(json.readValue(text, MemberPlan.class));
            } catch (Exception e) {
                throw new ParameterException(spec.commandLine(), "--plan: not a member plan: " + e.getMessage());
            }
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        SharedJvmMembers.run(plans, new MemberRun.Control() {
            @Override
            public void ready() {
                System.out.println(ChildMembers.READY);
                System.out.flush();
            }

            @Override
            public void awaitGo() throws Exception {
                String line = in.readLine();
                if (!ChildMembers.GO.equals(line)) {
                    throw new IllegalStateException("expected " + ChildMembers.GO + " on standard input, got "
                            + line);
                }
            }
        }, results -> {
            for (MemberResult result : results) {
                System.out.println(ChildMembers.RESULT + json.writeValueAsString(result));
            }
            System.out.flush();
        });
        return 0;
    }
}
