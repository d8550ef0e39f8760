package io.ricochet.protocols;

import io.ricochet.engine.EngineConfig;
import io.ricochet.engine.ProtocolFactory;
import io.ricochet.fec.FecConfig;
import io.ricochet.fec.FecProtocol;
import io.ricochet.pbcast.PbcastConfig;
import io.ricochet.pbcast.PbcastProtocol;
import io.ricochet.srm.SrmConfig;
import io.ricochet.srm.SrmProtocol;
import java.util.Locale;

/**
 * The protocols a simulation or a daemon can run, by command-line name. Ricochet takes every engine flag;
 * sender-based FEC takes {@code --r}, {@code --c} (a whole number) and {@code --nak}; SRM and pbcast run with their
 * own defaults (docs/design/srm.md, docs/design/pbcast.md).
 */
public enum ProtocolChoice {
    RICOCHET(0), SRM(1), FEC(2), PBCAST(3);

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
        throw new IllegalArgumentException("protocol '" + text + "' is not one of ricochet, srm, fec, pbcast");
    }

    /** The factory for this protocol, from Ricochet's engine settings (the shared flags) and the payload size. */
    public ProtocolFactory factory(EngineConfig engine, int payload) {
        switch (this) {
            case SRM:
                return new SrmProtocol(SrmConfig.builder().maxPayload(payload).build());
            case FEC:
                if (engine.defaultC() != Math.rint(engine.defaultC())) {
                    throw new IllegalArgumentException("sender-based FEC needs a whole number of repairs, --c "
                            + engine.defaultC());
                }
                return new FecProtocol(FecConfig.builder().r(engine.r()).c((int) engine.defaultC())
                        .nakEnabled(engine.nakEnabled()).maxPayload(payload).build());
            case PBCAST:
                return new PbcastProtocol(PbcastConfig.builder().maxPayload(payload).build());
            default:
                return ProtocolFactory.ricochet(engine);
        }
    }
}
