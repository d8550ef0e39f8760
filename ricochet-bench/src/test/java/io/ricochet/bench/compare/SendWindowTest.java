package io.ricochet.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class SendWindowTest {
    @Test
    void aFullWindowWaitsUntilHalfOfItIsFree() throws Exception {
        SendWindow window = new SendWindow(8);
        for (int i = 0; i < 8; i++) {
            window.acquire();
        }
        AtomicBoolean took = new AtomicBoolean();
        CountDownLatch waiting = new CountDownLatch(1);
        Thread sender = new Thread(() -> {
            try {
                waiting.countDown();
                window.acquire();
                took.set(true);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        sender.start();
        waiting.await();
        // Released only once the sender is parked on the full window (else it would find room and not wait).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (sender.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(Thread.State.WAITING, sender.getState(), "the sender waits on the full window");
        for (int i = 0; i < 3; i++) {
            window.release(); // 5 in flight: above half, the sender must still wait
        }
        sender.join(200);
        assertFalse(took.get(), "took a place before half of the window was free");
        window.release(); // 4 = half
        sender.join(TimeUnit.SECONDS.toMillis(30));
        assertTrue(took.get());
        assertEquals(5, window.inFlight());
    }

    @Test
    void awaitEmptyReturnsOnceEverySendIsReleased() throws Exception {
        SendWindow window = new SendWindow(4);
        for (int i = 0; i < 4; i++) {
            window.acquire();
        }
        Thread completer = new Thread(() -> {
            for (int i = 0; i < 4; i++) {
                window.release();
            }
        });
        completer.start();
        window.awaitEmpty();
        assertEquals(0, window.inFlight());
        completer.join();
    }

    @Test
    void manyCompletionsFromAnotherThreadLoseNoWakeUp() throws Exception {
        SendWindow window = new SendWindow(16);
        java.util.concurrent.ExecutorService completer = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            for (int i = 0; i < 200_000; i++) {
                window.acquire();
                completer.execute(window::release);
            }
            window.awaitEmpty();
            assertEquals(0, window.inFlight());
        } finally {
            completer.shutdownNow();
        }
    }

    @Test
    void refusesAWindowTooSmallToHaveAHalf() {
        assertThrows(IllegalArgumentException.class, () -> new SendWindow(1));
    }
}
