package io.ricochet.control.message;

/** Failure detector to GMS: the detector {@code detectorId} answers again. */
public record DetectorRecovered(String detectorId) implements ControlMessage {
    public DetectorRecovered {
        Fields.requireText(detectorId, "detectorId");
    }

    @Override
    public int type() {
        return MessageType.DETECTOR_RECOVERED;
    }
}
