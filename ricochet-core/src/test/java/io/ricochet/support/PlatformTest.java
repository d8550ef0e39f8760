package io.ricochet.support;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class PlatformTest {
    @Test
    void shouldRequireEverythingOnLinuxX8664WithAKernelOfFiveOrLater() {
        assertTrue(Platform.mustSupportEverything("Linux", "amd64", "5.0.0-1-generic"));
        assertTrue(Platform.mustSupportEverything("Linux", "x86_64", "6.18.44-fc-v657"));
        assertTrue(Platform.mustSupportEverything("Linux", "amd64", "10.1"));
        assertFalse(Platform.mustSupportEverything("Linux", "amd64", "4.19.0-27-cloud-amd64"));
        assertFalse(Platform.mustSupportEverything("Linux", "aarch64", "6.1.0"));
        assertFalse(Platform.mustSupportEverything("Mac OS X", "x86_64", "14.5"));
        assertFalse(Platform.mustSupportEverything("Linux", "amd64", "unknown"));
        assertFalse(Platform.mustSupportEverything("Linux", "amd64", null));
    }

    @Test
    void shouldFailWhereEverythingIsRequiredAndSkipElsewhere() {
        Platform.need(true, "present");
        Class<? extends Throwable> expected = Platform.mustSupportEverything()
                ? AssertionFailedError.class : TestAbortedException.class;
        assertThrows(expected, () -> Platform.need(false, "a feature"));
    }
}
