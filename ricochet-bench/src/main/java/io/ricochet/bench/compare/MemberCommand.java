package io.ricochet.bench.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench vs-jgroups member}: one member in a process of its own, started by a trial ({@link ChildMembers}):
 * prints {@code READY}, waits for {@code GO} on its standard input, prints {@code RESULT <json>}.
 */
@Command(name = MemberCommand.NAME, hidden = true,
        description = "One member of a vs-jgroups trial, in its own process (started by the experiments).")
public final class MemberCommand implements Callable<Integer> {
    /** The command's name. */
    public static final String NAME = "member";

    @Spec
    private CommandSpec spec;

    @Option(names = "--plan", paramLabel = "JSON", required = true, description = "the member's plan (MemberPlan)")
    private String planJson;

    @Override
    public Integer call() throws Exception {
        ObjectMapper json = new ObjectMapper();
        MemberPlan plan;
        try {
            plan = json.readValue(planJson, MemberPlan.class);
        } catch (Exception e) {
            throw new ParameterException(spec.commandLine(), "--plan: not a member plan: " + e.getMessage());
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        GroupMember member = plan.system().newMember(plan);
        MemberResult result = MemberRun.run(plan, member, new MemberRun.Control() {
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
        });
        System.out.println(ChildMembers.RESULT + json.writeValueAsString(result));
        System.out.flush();
        member.close();
        return 0;
    }
}
