package io.ricochet.bench.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A command the release tests run to its end: its exit status and its output (stdout and stderr together). */
record Command(int exit, String output) {
    private static final long TIMEOUT_SECONDS = 120;

    /** Runs {@code command} in {@code dir} with {@code env} added to this JVM's environment; fails after 120 s. */
    static Command run(Path dir, Map<String, String> env, List<String> command) {
        try {
            Path out = Files.createTempFile("release-command", ".out");
            ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile());
            builder.environment().putAll(env);
            Process process = builder.start();
            try {
                if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError(command + " did not end within " + TIMEOUT_SECONDS + " s");
                }
                return new Command(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
            } finally {
                Files.delete(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + command, e);
        }
    }

    /** Runs {@code command} in {@code dir}, which must exit 0; returns its output. */
    static String ok(Path dir, String... command) {
        Command result = run(dir, Map.of(), List.of(command));
        if (result.exit() != 0) {
            throw new AssertionError(String.join(" ", command) + " exited " + result.exit() + ":\n" + result.output());
        }
        return result.output();
    }

    /**
     * Fails, saying what to install, unless {@code tool} is on the PATH: the release tests never skip because a
     * tool is missing (CI is Debian, where it is).
     */
    static void requireTool(String tool, String install) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return;
            }
        }
        throw new AssertionError(tool + " is not on the PATH: " + install);
    }
}
