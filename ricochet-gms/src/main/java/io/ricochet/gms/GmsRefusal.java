package io.ricochet.gms;

/**
 * A request the GMS will not carry out, with the {@link io.ricochet.control.message.ErrorCode} and the message of the
 * ERROR reply the requester gets. Nothing changed when it is thrown.
 */
final class GmsRefusal extends Exception {
    private static final long serialVersionUID = 1L;

    private final int code;

    GmsRefusal(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    int code() {
        return code;
    }
}
