package io.ricochet.workload;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Finds and reads the files a summary needs. A directory argument stands for every {@code node-*.json} in it, and
 * for its {@code plan.json} and {@code kernel.json} when those are not given explicitly; a file argument is one
 * node's result.
 */
public final class ResultFiles {
    /** The plan file's name inside a workload directory. */
    public static final String PLAN = "plan.json";
    /** The kernel counters file's name inside a workload directory. */
    public static final String KERNEL = "kernel.json";

    private final List<Path> results = new ArrayList<>();
    private Path plan;
    private Path kernel;

    /**
     * @param paths  directories and result files
     * @param plan   the plan file, or null to look for one in the directories
     * @param kernel the kernel counters file, or null to look for one in the directories
     * @throws IllegalArgumentException if a path does not exist or no result file is found
     */
    public ResultFiles(List<Path> paths, Path plan, Path kernel) {
        this.plan = plan;
        this.kernel = kernel;
        for (Path path : paths) {
            if (Files.isDirectory(path)) {
                addDirectory(path);
            } else if (Files.isRegularFile(path)) {
                results.add(path);
            } else {
                throw new IllegalArgumentException(path + ": no such file or directory");
            }
        }
        if (results.isEmpty()) {
            throw new IllegalArgumentException("no node-*.json result files in " + paths);
        }
    }

    private void addDirectory(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(f -> f.getFileName().toString().matches("node-.*\\.json")).sorted().forEach(results::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        if (plan == null && Files.isRegularFile(dir.resolve(PLAN))) {
            plan = dir.resolve(PLAN);
        }
        if (kernel == null && Files.isRegularFile(dir.resolve(KERNEL))) {
            kernel = dir.resolve(KERNEL);
        }
    }

    /** Every node result, read and checked. */
    public List<NodeResult> results() {
        List<NodeResult> out = new ArrayList<>();
        for (Path file : results) {
            try {
                out.add(NodeResult.fromJson(WorkloadJson.read(file)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": " + e.getMessage());
            }
        }
        return out;
    }

    /** The plan, or null if none was given or found. */
    public WorkloadPlan plan() {
        if (plan == null) {
            return null;
        }
        try {
            return WorkloadPlan.fromJson(WorkloadJson.read(plan));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(plan + ": " + e.getMessage());
        }
    }

    /** Namespace to counter to value, or empty if no kernel file was given or found. */
    public Map<String, Map<String, Long>> kernel() {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        if (kernel == null) {
            return out;
        }
        JsonNode json = WorkloadJson.read(kernel);
        WorkloadJson.fields(json).forEach((ns, counters) -> {
            Map<String, Long> values = new TreeMap<>();
            WorkloadJson.fields(counters).forEach((name, value) -> {
                if (!value.canConvertToLong()) {
                    throw new IllegalArgumentException(kernel + ": " + ns + "." + name + " is not an integer");
                }
                values.put(name, value.asLong());
            });
            out.put(ns, values);
        });
        return out;
    }
}
