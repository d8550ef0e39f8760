package io.ricochet.loss;

import java.util.Locale;

/**
 * Which packets arriving at a receiver a {@link LossModel} is applied to.
 *
 * <p>By default ({@link #DATA}) a model applies only to data packets arriving at a receiver: the loss rate in the
 * Ricochet paper is a data-packet loss rate, so repair, NAK and control traffic get through. {@link #ALL} applies the
 * model to every packet type, which also loses repairs and control messages.
 */
public enum LossScope {

    /** Only data packets are subject to loss (the default). */
    DATA,

    /** Every packet type is subject to loss. */
    ALL;

    /**
     * Parses the command-line form {@code data} or {@code all}, ignoring case and surrounding whitespace.
     *
     * @param text the text to parse
     * @return the scope named by {@code text}
     * @throws IllegalArgumentException if {@code text} is null or names no scope
     */
    public static LossScope parse(String text) {
        String name = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        return switch (name) {
            case "data" -> DATA;
            case "all" -> ALL;
            default -> throw new IllegalArgumentException("loss scope "
                    + (text == null ? "is missing" : "'" + text + "' is not recognised") + "; use data or all");
        };
    }
}
