package io.ricochet.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The version of Ricochet, the project's (Maven's {@code project.version}, written into {@code version.properties}
 * by resource filtering), and the {@code versionProvider} of every program: {@code --version} prints the name of the
 * top-level command and this version ({@code ricochet 0.1.0-SNAPSHOT}), the same string the release's archives are
 * named with.
 */
public final class ProjectVersion implements CommandLine.IVersionProvider {
    private static final String VERSION = load();

    @Spec
    private CommandSpec spec;

    /** The project's version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String version() {
        return VERSION;
    }

    @Override
    public String[] getVersion() {
        return new String[] {spec.root().name() + " " + VERSION};
    }

    private static String load() {
        try (InputStream in = ProjectVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("io/ricochet/support/version.properties is not on the class path");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
