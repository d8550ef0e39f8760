package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.daemon.DaemonCounter;
import io.ricochet.engine.EngineCounter;
import io.ricochet.lec.LecCounter;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CounterRatesTest {
    private static final long TWO_SECONDS_NS = 2_000_000_000L;

    @Test
    void shouldGiveEachCountersIncreasePerSecond() {
        CounterRates rates = CounterRates.between(
                SampleStats.node(1, "DATA_RECEIVED", 100, "LOSSES_DETECTED", 7),
                SampleStats.node(1, "DATA_RECEIVED", 300, "LOSSES_DETECTED", 8), TWO_SECONDS_NS);

        assertEquals(100.0, rates.perSecond(EngineCounter.DATA_RECEIVED));
        assertEquals(0.5, rates.perSecond(EngineCounter.LOSSES_DETECTED));
        assertEquals(200, rates.delta(EngineCounter.DATA_RECEIVED));
        assertEquals(Map.of("DATA_RECEIVED", 100.0, "LOSSES_DETECTED", 0.5), rates.perSecond());
    }

    @Test
    void shouldHaveNoRateForACounterTheDaemonDoesNotHave() {
        CounterRates rates = CounterRates.between(SampleStats.node(1), SampleStats.node(1), TWO_SECONDS_NS);

        assertTrue(Double.isNaN(rates.perSecond(LecCounter.REPAIRS_SENT)));
        assertEquals(0, rates.delta(LecCounter.RECOVERED_BY_XOR));
    }

    @Test
    void shouldNotCompareAcrossARestartOrWithoutTime() {
        assertNull(CounterRates.between(SampleStats.node(1, "DATA_SENT", 9), SampleStats.node(2, "DATA_SENT", 1),
                TWO_SECONDS_NS));
        assertNull(CounterRates.between(null, SampleStats.node(1), TWO_SECONDS_NS));
        assertNull(CounterRates.between(SampleStats.node(1), SampleStats.node(1), 0));
    }

    @Test
    void shouldGiveGaugesAndCountersThatWentBackNoRate() {
        CounterRates rates = CounterRates.between(
                SampleStats.node(1, "SEND_QUEUE_PEAK", 5, "DATA_SENT", 9),
                SampleStats.node(1, "SEND_QUEUE_PEAK", 50, "DATA_SENT", 3), TWO_SECONDS_NS);

        assertTrue(Double.isNaN(rates.perSecond(DaemonCounter.SEND_QUEUE_PEAK)));
        assertTrue(Double.isNaN(rates.perSecond(EngineCounter.DATA_SENT)));
        assertTrue(CounterRates.GAUGES.contains("CONNECTIONS_OPEN"));
        assertTrue(CounterRates.GAUGES.contains("RX_BATCH_PEAK"));
    }
}
