package io.ricochet.cli;

import java.math.BigDecimal;

/** Plain decimal text for the CLI's messages and tables: 5.0 reads "5", 0.010 reads "0.01". */
final class Decimals {

    private Decimals() {
    }

    /** The shortest plain decimal that reads back as {@code value}; NaN and infinities as Java prints them. */
    static String plain(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return Double.toString(value);
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
