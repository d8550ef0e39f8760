package io.ricochet.setting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A declaration's typed default and range, as the configs' checks and the docs read them. */
class SettingTest {

    @Test
    void shouldSayItsRangeAsTheChecksDo() {
        Setting stagger = Setting.integer("stagger", 1, "bins").range(1, 64);
        assertEquals("1..64", stagger.rangeText());
        assertTrue(stagger.allows(1) && stagger.allows(64));
        assertFalse(stagger.allows(0) || stagger.allows(65));
        assertEquals("at least 16", Setting.integer("rx-buffer", 8192, "packets").atLeast(16).rangeText());
        assertEquals("0 or more", Setting.integer("repair-buffer", 512, "repairs").atLeast(0).rangeText());
        assertEquals("", Setting.integer("seed", 1, "seed").rangeText());
        assertTrue(Setting.integer("seed", 1, "seed").allows(-5));
    }

    @Test
    void shouldGiveItsDefaultTyped() {
        assertEquals(100_000_000L, Setting.millis("nak-timeout-ms", 100, "wait").nanosDefault());
        assertEquals(5.0, Setting.decimal("c", "5", "repairs").decimalDefault());
        assertTrue(Setting.onOff("nak", true, "on|off").onDefault());
        assertEquals("on", Setting.onOff("nak", true, "on|off").defaultText());
        assertThrows(IllegalStateException.class, () -> Setting.text("interface", "lo", "name").intDefault());
        assertThrows(IllegalStateException.class,
                () -> Setting.required("node-id", Setting.Type.INTEGER, "id").intDefault());
    }

    @Test
    void shouldRefuseAnEmptyRange() {
        assertThrows(IllegalArgumentException.class, () -> Setting.integer("x", 1, "x").range(2, 1));
    }
}
