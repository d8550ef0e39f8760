package io.ricochet.fd;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects the targets given by several command-line flags and refuses, with a message that starts with the flag,
 * any two that could not be told apart: the same wire id (a node listed twice, a detector listed twice, or a detector
 * whose name hashes to a node's id) or the same address, and any target that is this detector itself.
 */
final class TargetList {
    private final String ownId;
    private final List<Target> targets = new ArrayList<>();
    private final Map<Integer, String> flagByWireId = new HashMap<>();
    private final Map<Integer, Target> byWireId = new HashMap<>();
    private final Map<InetSocketAddress, Target> byAddress = new HashMap<>();

    TargetList(String ownId) {
        this.ownId = ownId;
    }

    /** Adds the targets of {@code flag}. */
    TargetList add(String flag, List<Target> given) {
        for (Target target : given) {
            add(flag, target);
        }
        return this;
    }

    List<Target> targets() {
        return List.copyOf(targets);
    }

    private void add(String flag, Target target) {
        if (target.wireId() == Target.detectorWireId(ownId)) {
            throw new IllegalArgumentException(flag + ": " + (ownId.equals(target.name())
                    ? "'" + ownId + "' is this detector's own --id"
                    : target.describe() + " has the wire id of this detector's --id '" + ownId + "'"));
        }
        Target clash = byWireId.get(target.wireId());
        if (clash != null) {
            throw new IllegalArgumentException(flag + ": " + clashMessage(target, clash,
                    flagByWireId.get(target.wireId()), flag));
        }
        Target sameAddress = byAddress.get(target.address());
        if (sameAddress != null) {
            throw new IllegalArgumentException(flag + ": " + target.describe() + " has the address of "
                    + sameAddress.describe());
        }
        byWireId.put(target.wireId(), target);
        flagByWireId.put(target.wireId(), flag);
        byAddress.put(target.address(), target);
        targets.add(target);
    }

    private static String clashMessage(Target target, Target clash, String clashFlag, String flag) {
        if (target.kind() == clash.kind() && target.name().equals(clash.name())) {
            String noun = target.kind() == Target.Kind.DAEMON ? "node id " : "detector ";
            return noun + target.name() + (clashFlag.equals(flag) ? " is listed twice" : " is also in " + clashFlag);
        }
        return target.describe() + " answers with wire id " + target.wireId() + ", as " + clash.describe()
                + " in " + clashFlag + " does (a detector's wire id is the hash of its name): rename the detector";
    }
}
