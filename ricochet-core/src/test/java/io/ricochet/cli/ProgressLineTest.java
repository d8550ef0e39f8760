package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressLineTest {

    private final AtomicLong clock = new AtomicLong(1_000);
    private final StringWriter text = new StringWriter();
    private final ProgressLine progress = new ProgressLine(new PrintWriter(text), clock::get);

    @Test
    void shouldStayQuietForTheFirstTwoSeconds() {
        clock.addAndGet(1_900_000_000L);
        progress.at(1, 31);
        progress.finish();

        assertEquals("", text.toString());
    }

    @Test
    void shouldRedrawInPlaceAndEraseAtTheEnd() {
        clock.addAndGet(3_000_000_000L);
        progress.at(12, 31);
        progress.at(31, 31);
        progress.finish();

        String first = "simulated 12.0 / 31.0 s, 39%, 3 s elapsed";
        String second = "simulated 31.0 / 31.0 s, 100%, 3 s elapsed";
        assertEquals("\r" + first + "\r" + second + "\r" + " ".repeat(second.length()) + "\r", text.toString());
    }
}
