package io.ricochet.cli;

import io.ricochet.auth.ClusterKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ricochet keygen}: writes a new cluster key file (mode 0600) for the daemons and detectors. */
@Command(name = "keygen",
        sortOptions = false,
        description = {
            "Writes a new cluster key file: one random 256-bit key with the given id, mode 0600. Every daemon and "
                + "failure detector of a cluster reads the same file (--key-file) and authenticates every datagram "
                + "with it; copy it to each host over a trusted channel.",
            "",
            "Rotation: give every host a file with the current key first and the new one second (both are "
                + "accepted), then move the new key first (it is used to send), then remove the old one. The file "
                + "format is in docs/design/security.md.",
            ""},
        footer = {
            "",
            "Exit status: 0 success, 1 the command failed, 2 bad input.",
            "The key file and its rotation: docs/design/security.md; where it goes: docs/operations.md.",
        })
public final class KeygenCommand implements Callable<Integer> {
    @Option(names = "--out", paramLabel = "FILE", required = true,
            description = "where to write the key file; refused if it exists")
    private Path out;

    @Option(names = "--id", paramLabel = "ID", defaultValue = "1",
            description = "the key's id, 1..255 (default: ${DEFAULT-VALUE}); use a new id for each new key")
    private int id;

    @Override
    public Integer call() throws IOException {
        if (id < ClusterKeys.MIN_ID || id > ClusterKeys.MAX_ID) {
            System.err.println("ricochet keygen: --id " + id + ": must be in " + ClusterKeys.MIN_ID + ".."
                    + ClusterKeys.MAX_ID);
            return 2;
        }
        if (Files.exists(out)) {
            System.err.println("ricochet keygen: " + out + " exists; remove it first or choose another --out");
            return 1;
        }
        ClusterKeys.generate(new SecureRandom(), id).write(out);
        System.out.println("wrote key " + id + " to " + out + " (mode 0600)");
        return 0;
    }
}
