package io.ricochet.protocols;

import io.ricochet.engine.Counter;
import io.ricochet.engine.OriginSeals;
import io.ricochet.engine.ProtocolFactory;
import io.ricochet.fec.FecConfig;
import io.ricochet.fec.FecProtocol;
import io.ricochet.ipmc.IpmcProtocol;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.lecnak.RicochetProtocol;
import io.ricochet.pbcast.PbcastConfig;
import io.ricochet.pbcast.PbcastProtocol;
import io.ricochet.qsm.QsmConfig;
import io.ricochet.qsm.QsmProtocol;
import io.ricochet.srm.SrmConfig;
import io.ricochet.srm.SrmProtocol;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The protocols a simulation or a daemon can run, by command-line name. Ricochet takes every engine flag;
 * sender-based FEC takes {@code --r}, {@code --c} (a whole number) and {@code --nak}; SRM and pbcast run with their
 * own defaults (docs/design/srm.md, docs/design/pbcast.md); ipmc is plain IP multicast, best effort, with no
 * recovery at all (docs/design/ipmc.md); qsm is QuickSilver's token-ring recovery with its own defaults
 * (docs/design/qsm.md).
 */
public enum ProtocolChoice {
    RICOCHET(0), SRM(1), FEC(2), PBCAST(3), IPMC(4), QSM(5);

    private final int wireId;

    ProtocolChoice(int wireId) {
        this.wireId = wireId;
    }

    /** The protocol's id in the GMS's JOIN and GROUP_VIEW messages: a group runs one protocol. */
    public int wireId() {
        return wireId;
    }

    /** The name used on the command line and in results. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a command-line name, with a message listing the choices. */
    public static ProtocolChoice parse(String text) {
        for (ProtocolChoice p : values()) {
            if (p.cliName().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        throw new IllegalArgumentException("protocol '" + text
                + "' is not one of ricochet, srm, fec, pbcast, ipmc, qsm");
    }

    /**
     * Every counter an engine of any of these protocols may keep, each once, in id order: the fixed columns of every
     * result file. QSM's own counters are left out, so adding it changed no other protocol's result file; a qsm run
     * lists them after these.
     */
    public static List<Counter> allCounters() {
        Set<Counter> all = new LinkedHashSet<>();
        all.addAll(RicochetProtocol.COUNTERS);
        all.addAll(SrmProtocol.COUNTERS);
        all.addAll(FecProtocol.COUNTERS);
        all.addAll(PbcastProtocol.COUNTERS);
        all.addAll(IpmcProtocol.COUNTERS);
        List<Counter> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparingInt(Counter::id));
        return List.copyOf(sorted);
    }

    /** The factory for this protocol, from Ricochet's engine settings (the shared flags) and the payload size. */
    public ProtocolFactory factory(RicochetConfig engine, int payload) {
        return factory(engine, payload, ProtocolTuning.DEFAULTS);
    }

    /**
     * The factory for this protocol, from Ricochet's engine settings (the shared flags), the payload size and the
     * other protocols' settings that differ from their defaults.
     */
    public ProtocolFactory factory(RicochetConfig engine, int payload, ProtocolTuning tuning) {
        return factory(engine, payload, tuning, () -> OriginSeals.NONE);
    }

    /**
     * As above, with the origin seals each Ricochet engine checks rebuilt packets against (one per engine, from
     * {@code seals}); the other protocols rebuild nothing from other members' repairs and take none. A null
     * {@code tuning} is every protocol's defaults (callers written for the former nullable SRM interval pass null).
     */
    public ProtocolFactory factory(RicochetConfig engine, int payload, ProtocolTuning given,
                                   Supplier<OriginSeals> seals) {
        ProtocolTuning tuning = given == null ? ProtocolTuning.DEFAULTS : given;
        switch (this) {
            case SRM:
                SrmConfig.Builder srm = SrmConfig.builder().maxPayload(payload);
                if (tuning.srmSessionIntervalNs() != null) {
                    srm.sessionIntervalNs(tuning.srmSessionIntervalNs());
                }
                return new SrmProtocol(srm.build());
            case FEC:
                if (engine.defaultC() != Math.rint(engine.defaultC())) {
                    throw new IllegalArgumentException("sender-based FEC needs a whole number of repairs, --c "
                            + engine.defaultC());
                }
                return new FecProtocol(FecConfig.builder().r(engine.r()).c((int) engine.defaultC())
                        .nakEnabled(engine.nakSettings().nakEnabled()).maxPayload(payload).build());
            case PBCAST:
                return new PbcastProtocol(PbcastConfig.builder().maxPayload(payload).build());
            case IPMC:
                return new IpmcProtocol(payload);
            case QSM:
                QsmConfig.Builder qsm = QsmConfig.builder().maxPayload(payload);
                if (tuning.qsmTokenIntervalNs() != null) {
                    qsm.tokenIntervalNs(tuning.qsmTokenIntervalNs());
                }
                if (tuning.qsmPartitionSize() != null) {
                    qsm.partitionSize(tuning.qsmPartitionSize());
                }
                if (tuning.qsmRegenerationFloorNs() != null) {
                    qsm.regenerationFloorNs(tuning.qsmRegenerationFloorNs());
                }
                return new QsmProtocol(qsm.build());
            default:
                return new RicochetProtocol(engine, seals);
        }
    }
}
