package io.ricochet.control.message;

/** Failure detector to GMS: the detector {@code detectorId} (a rack FD) stopped answering. */
public record DetectorFailed(String detectorId) implements ControlMessage {
    public DetectorFailed {
        Fields.requireText(detectorId, "detectorId");
    }

    @Override
    public int type() {
        return MessageType.DETECTOR_FAILED;
    }
}
