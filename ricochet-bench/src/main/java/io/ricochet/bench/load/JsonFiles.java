package io.ricochet.bench.load;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The bench's JSON: one mapper for what it reads and writes compactly, and its output files pretty-printed with
 * Jackson, replaced atomically so a reader never sees half.
 */
public final class JsonFiles {
    /** The mapper every bench command reads JSON with (unknown properties refused, as Jackson's default). */
    public static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n")));

    private JsonFiles() {
    }

    /** {@code value} as pretty JSON text. */
    public static String text(Object value) {
        try {
            return WRITER.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code value} to {@code path} through a temporary file in the same directory and a rename. */
    public static void write(Path path, Object value) throws IOException {
        Path absolute = path.toAbsolutePath();
        Path dir = absolute.getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + absolute.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, text(value) + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
