package io.ricochet.bench.experiment;

/** An experiment that cannot go on: the message says what failed and, where it can, how to fix it. */
public final class ExperimentException extends Exception {
    public ExperimentException(String message) {
        super(message);
    }

    public ExperimentException(String message, Throwable cause) {
        super(message, cause);
    }
}
