package io.ricochet.auth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

class BadTagLogTest {
    private long nowNs = 1_000;
    private final BadTagLog log = new BadTagLog(NOPLogger.NOP_LOGGER, "node 1", () -> nowNs);

    @Test
    void shouldWarnOncePerSourcePerMinute() {
        assertTrue(log.onBadTag("node 2"));
        assertFalse(log.onBadTag("node 2"));
        nowNs += BadTagLog.INTERVAL_NS - 1;
        assertFalse(log.onBadTag("node 2"));
        nowNs += 1;
        assertTrue(log.onBadTag("node 2"));
    }

    @Test
    void shouldWarnAboutEachSourceSeparately() {
        assertTrue(log.onBadTag("node 2"));
        assertTrue(log.onBadTag("node 3"));
        assertFalse(log.onBadTag("node 3"));
    }

    @Test
    void shouldBoundTheSourcesItWarnsAboutPerMinute() {
        for (int i = 0; i < BadTagLog.MAX_SOURCES; i++) {
            assertTrue(log.onBadTag(i));
        }
        assertFalse(log.onBadTag(BadTagLog.MAX_SOURCES), "one source more than remembered, within the minute");
        nowNs += BadTagLog.INTERVAL_NS;
        assertTrue(log.onBadTag(BadTagLog.MAX_SOURCES), "the oldest source's minute has passed: forgotten");
        assertFalse(log.onBadTag(BadTagLog.MAX_SOURCES));
    }
}
