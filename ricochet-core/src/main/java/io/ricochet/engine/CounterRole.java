package io.ricochet.engine;

import java.util.Collection;
import java.util.List;

/**
 * What a counter measures in terms every protocol with proactive repairs shares (LEC's XORs, sender-based FEC's
 * symbols), so that a display or a report can show "repairs" without knowing which protocol runs.
 */
public enum CounterRole {
    /** Nothing shared: the counter is read by its own name. */
    NONE,
    /** Proactive repair packets this node sent. */
    REPAIRS_SENT,
    /** Proactive repair packets this node received. */
    REPAIRS_RECEIVED,
    /** Lost packets this node rebuilt from proactive repairs. */
    RECOVERED_BY_REPAIR;

    /** The counters of {@code counters} that have this role, in their order. */
    public List<Counter> among(Collection<? extends Counter> counters) {
        return counters.stream().filter(c -> c.role() == this).map(Counter.class::cast).toList();
    }
}
