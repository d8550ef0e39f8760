package io.ricochet.bench.regions;

import io.ricochet.bench.OptionChecks;
import io.ricochet.bench.load.JsonFiles;
import io.ricochet.region.RegionPlan;
import io.ricochet.region.RegionPlanner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench regions}: the QSM paper's region experiment (section 3, Figures 5 and 6) on the GMS's region
 * computation ({@link RegionPlanner}): for every number of nodes and of groups, each node joins a share of the
 * groups with Zipf popularity, and the plan's regions per node, regions per group, region sizes and traffic share
 * of a node's two busiest regions are printed (and written as JSON with {@code --out}).
 */
@Command(name = "regions",
        sortOptions = false,
        description = {
            "QSM's regions on the paper's Figure 5/6 scenario: N nodes each join --share of G groups, drawn without "
                + "replacement with Zipf popularity --alpha (seeded); the GMS's greedy region computation "
                + "(io.ricochet.region) then splits the groups into regularly overlapping sets and their regions. "
                + "Prints, per (N, G): sets and regions, regions per node (mean, max), regions per group (mean, p99, "
                + "max), region sizes (mean, p10, p50, p90, max), the share of a node's traffic in its 2 busiest "
                + "regions when every group carries the same traffic (mean, p10 over nodes), and the planning time. "
                + "The paper: 4-14 regions per node, no group in more than ~5 regions, regions of 5-10 members, "
                + "95 %% of a node's packets in 2 regions.",
            "",
        })
public final class RegionsCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", split = ",", defaultValue = "250,500,1000,2000",
            description = "Numbers of nodes (default: ${DEFAULT-VALUE}).")
    private List<Integer> nodes;

    @Option(names = "--groups", paramLabel = "G", split = ",", defaultValue = "1000,10000",
            description = "Numbers of groups (default: ${DEFAULT-VALUE}).")
    private List<Integer> groups;

    @Option(names = "--share", paramLabel = "F", defaultValue = "0.1",
            description = "Share of the groups each node joins (default: ${DEFAULT-VALUE}).")
    private double share;

    @Option(names = "--alpha", paramLabel = "A", defaultValue = "1.5",
            description = "Zipf exponent of group popularity (default: ${DEFAULT-VALUE}).")
    private double alpha;

    @Option(names = "--min-region-size", paramLabel = "M", split = ",", defaultValue = "5",
            description = "Smallest region a group may create when it joins a set, as the GMS's --min-region-size; "
                    + "several values give one row each (default: ${DEFAULT-VALUE}).")
    private List<Integer> minRegionSizes;

    /** How a node's groups are drawn. */
    enum Sampling { distinct, draws }

    @Option(names = "--sampling", paramLabel = "HOW", defaultValue = "distinct",
            description = "distinct: each node joins exactly --share x G different groups (weighted sampling "
                    + "without replacement); draws: each node makes --share x G independent Zipf draws and joins "
                    + "the groups drawn (fewer, more popular groups) (default: ${DEFAULT-VALUE}).")
    private Sampling sampling;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Seed of the memberships (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--churn", paramLabel = "J", defaultValue = "0",
            description = "Also measure J random joins, one at a time from the planned state: how many groups' "
                    + "regions each changes (each such group's members all get a new view); J more plans per row "
                    + "(default: ${DEFAULT-VALUE}).")
    private int churn;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the results as JSON here.")
    private Path out;

    @Override
    public Integer call() throws Exception {
        OptionChecks checks = new OptionChecks(spec);
        checks.check(nodes.stream().allMatch(n -> n >= 1 && n <= 100_000), "--nodes " + nodes
                + ": each must be in 1..100000");
        checks.check(groups.stream().allMatch(g -> g >= 1 && g <= 100_000), "--groups " + groups
                + ": each must be in 1..100000");
        checks.check(share > 0 && share <= 1, "--share " + share + ": must be in (0, 1]");
        checks.check(alpha >= 0 && alpha <= 10, "--alpha " + alpha + ": must be in 0..10");
        checks.check(minRegionSizes.stream().allMatch(m -> m >= 1 && m <= RegionPlanner.MAX_MIN_REGION_SIZE),
                "--min-region-size " + minRegionSizes + ": each must be in 1.." + RegionPlanner.MAX_MIN_REGION_SIZE);
        checks.check(churn >= 0 && churn <= 1000, "--churn " + churn + ": must be in 0..1000");
        checks.check((long) nodes.stream().mapToInt(Integer::intValue).max().orElse(0)
                        * groups.stream().mapToInt(Integer::intValue).max().orElse(0) * share <= 20_000_000,
                "--nodes x --groups x --share: at most 20000000 memberships (they are held in memory)");
        List<Map<String, Object>> rows = new ArrayList<>();
        System.out.printf(Locale.ROOT, "%6s %6s %6s %4s %6s %7s | %9s %4s | %9s %4s %4s | %6s %4s %4s %4s %5s | %9s"
                + " %5s | %7s%n", "nodes", "groups", "g/node", "min", "sets", "regions", "reg/node", "max", "reg/group",
                "p99", "max", "size", "p10", "p50", "p90", "max", "top-2", "p10", "plan ms");
        for (int g : groups) {
            for (int n : nodes) {
                int perNode = Math.max(1, (int) Math.round(share * g));
                Map<Integer, List<Integer>> members = sampling == Sampling.distinct
                        ? ZipfMemberships.distinct(n, g, perNode, alpha, seed)
                        : ZipfMemberships.draws(n, g, perNode, alpha, seed);
                for (int min : minRegionSizes) {
                    long start = System.nanoTime();
                    RegionPlanner planner = new RegionPlanner(min);
                    RegionPlan plan = planner.plan(members);
                    double ms = (System.nanoTime() - start) / 1e6;
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("nodes", n);
                    row.put("groups", g);
                    row.put("sampling", sampling.name());
                    row.put("groupsPerNodeMean", members.values().stream().mapToInt(List::size).sum() / (double) n);
                    row.put("minRegionSize", min);
                    row.putAll(RegionStats.of(plan, members));
                    row.put("planMs", ms);
                    if (churn > 0) {
                        row.putAll(Churn.of(planner, plan, members, churn, seed + 1));
                    }
                    rows.add(row);
                    print(row);
                }
            }
        }
        if (out != null) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("share", share);
            doc.put("alpha", alpha);
            doc.put("seed", seed);
            doc.put("sampling", sampling.name());
            doc.put("rows", rows);
            JsonFiles.write(out, doc);
        }
        return 0;
    }

    private static void print(Map<String, Object> r) {
        System.out.printf(Locale.ROOT, "%6d %6d %6.1f %4d %6d %7d | %9.2f %4.0f | %9.2f %4.0f %4.0f | %6.1f %4.0f"
                + " %4.0f %4.0f %5.0f | %8.1f%% %4.1f%% | %7.0f%n", r.get("nodes"), r.get("groups"),
                r.get("groupsPerNodeMean"),
                r.get("minRegionSize"), r.get("sets"), r.get("regions"), r.get("regionsPerNodeMean"),
                r.get("regionsPerNodeMax"), r.get("regionsPerGroupMean"), r.get("regionsPerGroupP99"),
                r.get("regionsPerGroupMax"), r.get("regionSizeMean"), r.get("regionSizeP10"), r.get("regionSizeP50"),
                r.get("regionSizeP90"), r.get("regionSizeMax"), 100 * (double) r.get("top2ShareMean"),
                100 * (double) r.get("top2ShareP10"), r.get("planMs"));
        if (r.containsKey("joins")) {
            System.out.printf(Locale.ROOT, "%6s one join changes the regions of %.1f group(s) on average: %.0f views%n",
                    "", r.get("groupsChangedPerJoin"), r.get("viewsPerJoin"));
        }
    }
}
