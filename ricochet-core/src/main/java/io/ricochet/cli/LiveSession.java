package io.ricochet.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The refresh loop of a live view ({@code ricochet top}, {@code ricochet stats --watch}): draws a frame every
 * interval until a count of frames is reached, the frame says stop (standard output closed), or the user quits:
 * {@code q} or Ctrl-D when standard input is a terminal, Ctrl-C always. Standard input is read only when it is a
 * terminal, so a view run in the background (stdin /dev/null) keeps going. Ctrl-C and the end both leave the
 * terminal as it was (line mode, cursor shown).
 */
final class LiveSession implements AutoCloseable {
    private static final int CTRL_D = 4;

    /** How keys are read. */
    enum Keys {
        /** Not at all (standard input is not a terminal). */
        NONE,
        /** A line at a time: "q" then Enter, or Ctrl-D. */
        LINES,
        /** Each key as typed (the terminal is switched with stty): q or Ctrl-D. */
        SINGLE
    }

    /** One refresh; returns false to stop. */
    @FunctionalInterface
    interface Frame {
        boolean draw();
    }

    private final CountDownLatch quit = new CountDownLatch(1);
    private final PrintWriter out;
    private final boolean ansi;
    private final Runnable restoreKeys;
    private final Thread restoreOnExit;

    /**
     * @param keys how to read standard input ({@link Keys#NONE} unless it is a terminal)
     * @param ansi whether frames are drawn in place (the cursor is hidden meanwhile)
     */
    LiveSession(Keys keys, boolean ansi, PrintWriter out, InputStream in) {
        this.out = out;
        this.ansi = ansi;
        this.restoreKeys = keys == Keys.SINGLE ? Terminal.singleKeys() : null;
        if (keys != Keys.NONE) {
            Thread reader = new Thread(() -> readKeys(in, keys == Keys.SINGLE && restoreKeys != null),
                    "ricochet-keys");
            reader.setDaemon(true);
            reader.start();
        }
        this.restoreOnExit = new Thread(this::restore, "ricochet-terminal");
        Runtime.getRuntime().addShutdownHook(restoreOnExit);
        if (ansi) {
            out.print(Terminal.HIDE_CURSOR);
        }
    }

    private void readKeys(InputStream in, boolean single) {
        try {
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c >= 0 && c != CTRL_D; c = in.read()) {
                if (single && (c == 'q' || c == 'Q')) {
                    break;
                }
                if (c == '\n') {
                    if (line.toString().strip().equalsIgnoreCase("q")) {
                        break;
                    }
                    line.setLength(0);
                } else if (line.length() < 80) {
                    line.append((char) c);
                }
            }
        } catch (IOException e) {
            // Standard input went away: as EOF.
        }
        quit.countDown();
    }

    /** Draws {@code frame} every {@code interval}, {@code count} times (0: until stopped). */
    void run(Duration interval, int count, Frame frame) throws InterruptedException {
        for (int drawn = 1; frame.draw(); drawn++) {
            if ((count > 0 && drawn >= count) || quit.await(interval.toNanos(), TimeUnit.NANOSECONDS)) {
                return;
            }
        }
    }

    private void restore() {
        if (restoreKeys != null) {
            restoreKeys.run();
        }
        if (ansi) {
            out.print(Terminal.SHOW_CURSOR);
            out.println();
            out.flush();
        }
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(restoreOnExit);
        } catch (IllegalStateException e) {
            return; // the JVM is exiting: the hook restores
        }
        restore();
    }
}
