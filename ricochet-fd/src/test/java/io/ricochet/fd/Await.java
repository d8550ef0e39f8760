package io.ricochet.fd;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls a condition until it holds, failing after a generous deadline: no timing threshold is being tested. */
final class Await {
    private static final long DEADLINE_MS = 30_000;
    private static final long POLL_MS = 5;

    private Await() {
    }

    static void until(String what, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + DEADLINE_MS * 1_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("gave up after " + DEADLINE_MS + " ms waiting for: " + what + "; state: " + state.get());
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting for: " + what);
            }
        }
    }
}
