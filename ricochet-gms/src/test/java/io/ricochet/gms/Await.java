package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for a condition by polling, with a generous deadline: a slow machine only makes a test slower. */
final class Await {
    private static final long DEADLINE_NS = 10_000_000_000L;
    private static final long POLL_MS = 10;

    private Await() {
    }

    static void until(String what, BooleanSupplier condition) {
        until(() -> what, condition);
    }

    static void until(Supplier<String> what, BooleanSupplier condition) {
        long start = System.nanoTime();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - start > DEADLINE_NS) {
                fail("timed out waiting for " + what.get());
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting for " + what.get());
            }
        }
    }
}
