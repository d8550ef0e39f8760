package io.ricochet.bench.scripts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One run of a script of the repository's scripts/ folder: exit code, standard output and error. */
record ScriptRun(int exitCode, String out, String err) {

    /** The repository root: the first folder above the working directory holding scripts/cluster. */
    static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isExecutable(dir.resolve("scripts/cluster"))) {
                return dir;
            }
        }
        throw new IllegalStateException("scripts/cluster not found above " + Path.of("").toAbsolutePath());
    }

    /** Runs {@code bash scripts/SCRIPT args...} from the root with {@code env} added; at most 60 s. */
    static ScriptRun of(Map<String, String> env, String script, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", root().resolve("scripts").resolve(script).toString()));
        command.addAll(List.of(args));
        return run(env, command);
    }

    /** Runs {@code bash -c SCRIPT} from the root, with $root set to it. */
    static ScriptRun bash(String script) throws Exception {
        return run(Map.of("root", root().toString()), List.of("bash", "-c", script));
    }

    private static ScriptRun run(Map<String, String> env, List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(root().toFile());
        builder.environment().putAll(env);
        Path out = Files.createTempFile("script-out", ".txt");
        Path err = Files.createTempFile("script-err", ".txt");
        try {
            Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(command + " did not finish within 60 s");
            }
            return new ScriptRun(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
