package io.ricochet.workload;

/** The workload cannot go on (daemon in the wrong state, timeout, bad input file); the message says why. */
public final class WorkloadException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message a one-line explanation for the operator */
    public WorkloadException(String message) {
        super(message, null, false, false);
    }
}
