package io.ricochet.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The console as the live views use it, without a curses library: whether a standard stream is a terminal, the ANSI
 * sequences that redraw a screen in place, and single-key input through {@code stty}.
 */
final class Terminal {
    /** Cursor to the top left corner. */
    static final String HOME = "\u001b[H";
    /** Erase from the cursor to the end of its line. */
    static final String CLEAR_LINE = "\u001b[K";
    /** Erase from the cursor to the end of the screen. */
    static final String CLEAR_BELOW = "\u001b[J";
    static final String HIDE_CURSOR = "\u001b[?25l";
    static final String SHOW_CURSOR = "\u001b[?25h";
    /** Standard input's and output's file descriptors. */
    static final int STDIN = 0;
    static final int STDOUT = 1;

    private static final long STTY_TIMEOUT_MS = 2_000;

    private Terminal() {
    }

    /** Whether file descriptor {@code fd} of this process is a terminal (Linux: where /proc/self/fd/N points). */
    static boolean isTerminal(int fd) {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** {@code text} drawn over the previous screen: cursor home, each line cleared to its end, the rest erased. */
    static String redraw(String text) {
        StringBuilder screen = new StringBuilder(HOME);
        for (String line : text.split("\n", -1)) {
            screen.append(line).append(CLEAR_LINE).append('\n');
        }
        screen.setLength(screen.length() - 1);
        return screen.append(CLEAR_BELOW).toString();
    }

    /**
     * Switches the controlling terminal to single keys (no line editing, no echo); returns what restores it, or
     * null if it could not be switched (then keys arrive a line at a time, which still ends the view on EOF).
     */
    static Runnable singleKeys() {
        String saved = stty("-g");
        if (saved == null || stty("-icanon", "-echo", "min", "1") == null) {
            return null;
        }
        return () -> stty(saved);
    }

    /** Runs {@code stty ARGS} on /dev/tty; its output, or null if it failed. */
    private static String stty(String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("stty"));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectInput(new File("/dev/tty"))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            if (!process.waitFor(STTY_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return null;
            }
            return process.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
