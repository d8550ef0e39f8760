package io.ricochet.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LossScopeTest {

    @ParameterizedTest
    @ValueSource(strings = {"data", "DATA", "Data", " data "})
    void shouldParseDataIgnoringCase(String text) {
        assertEquals(LossScope.DATA, LossScope.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "ALL", "aLl"})
    void shouldParseAllIgnoringCase(String text) {
        assertEquals(LossScope.ALL, LossScope.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "control", "data,all"})
    void shouldRejectUnknownScopes(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LossScope.parse(text));
        assertEquals("loss scope '" + text + "' is not recognised; use data or all", e.getMessage());
    }

    @Test
    void shouldRejectAMissingScope() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LossScope.parse(null));
        assertEquals("loss scope is missing; use data or all", e.getMessage());
    }
}
