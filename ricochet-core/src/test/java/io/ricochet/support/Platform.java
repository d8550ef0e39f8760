package io.ricochet.support;

import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The one place a test says it needs something of the platform (native epoll, Unix sockets through it, UDP GSO and
 * GRO, a kernel setting), instead of calling {@code assumeTrue} itself. On the platform CI runs on, Linux on x86_64
 * with a kernel of 5.0 or later, all of it is there, so a missing one is a failure: a test that skipped there would
 * hide a broken feature behind a green build (issue 37). Anywhere else the test is skipped, as {@code assumeTrue}
 * would.
 */
public final class Platform {
    private static final Pattern KERNEL = Pattern.compile("^(\\d+)\\.(\\d+)");

    private Platform() {
    }

    /** Needs {@code present}; {@code what} names what is missing when it is not. */
    public static void need(boolean present, String what) {
        need(present, () -> what);
    }

    /** As {@link #need(boolean, String)}, the message made only when it is needed. */
    public static void need(boolean present, Supplier<String> what) {
        if (present) {
            return;
        }
        if (mustSupportEverything()) {
            Assertions.fail("missing on " + describe() + ", where every test must run (no skip): " + what.get());
        }
        Assumptions.abort("skipped on " + describe() + ": " + what.get());
    }

    /** Whether this JVM runs where no test may skip: Linux, x86_64, kernel 5.0 or later. */
    public static boolean mustSupportEverything() {
        return mustSupportEverything(System.getProperty("os.name"), System.getProperty("os.arch"),
                System.getProperty("os.version"));
    }

    /** As {@link #mustSupportEverything()}, for the given {@code os.name}, {@code os.arch} and {@code os.version}. */
    static boolean mustSupportEverything(String osName, String osArch, String osVersion) {
        if (!"Linux".equals(osName) || !("amd64".equals(osArch) || "x86_64".equals(osArch)) || osVersion == null) {
            return false;
        }
        Matcher kernel = KERNEL.matcher(osVersion);
        return kernel.find() && Integer.parseInt(kernel.group(1)) >= 5;
    }

    private static String describe() {
        return System.getProperty("os.name") + " " + System.getProperty("os.arch") + " "
                + System.getProperty("os.version");
    }
}
