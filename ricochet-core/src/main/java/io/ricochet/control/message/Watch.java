package io.ricochet.control.message;

/**
 * Failure detector to GMS partition 0, first on every session with it: detector {@code detectorId} watches the
 * daemons of rack {@code rack} (u16), or, with rack 0, stands by to take over the racks of failed rack detectors.
 * The GMS answers with a {@link WatchList}, and sends a new one whenever the nodes this detector is to watch
 * change: a node of its rack registers, or a rack detector fails or recovers and its rack moves.
 */
public record Watch(String detectorId, int rack) implements ControlMessage {
    /** The rack of a standby detector. */
    public static final int STANDBY = 0;

    public Watch {
        Fields.requireText(detectorId, "detector id");
        Fields.requireU16(rack, "rack");
    }

    @Override
    public int type() {
        return MessageType.WATCH;
    }
}
