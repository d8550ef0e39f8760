package io.ricochet.api;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for a condition by polling, with a deadline generous enough for a loaded machine (no timing asserts). */
public final class Await {
    private static final long DEADLINE_MS = 30_000;
    private static final long POLL_MS = 5;

    private Await() {
    }

    /** Returns once {@code condition} holds; fails the test with {@code what} after the deadline. */
    public static void until(String what, BooleanSupplier condition) {
        until(() -> what, condition);
    }

    /** As {@link #until(String, BooleanSupplier)}, with a message built at failure time (to show state). */
    public static void until(Supplier<String> what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE_MS * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out waiting for: " + what.get());
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting for: " + what.get());
            }
        }
    }
}
