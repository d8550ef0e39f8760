package io.ricochet.bench.load;

import io.ricochet.client.ApiAddress;
import io.ricochet.control.link.GmsAddresses;
import io.ricochet.support.ParsingConverter;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * The GMS partitions as the daemon takes them ({@link GmsAddresses}): in partition order, separated by ',', each its
 * replicas {@code host:port} separated by '/'.
 *
 * @param partitions per partition, in partition order, its replicas' addresses
 */
public record GmsEndpoints(List<List<InetSocketAddress>> partitions) {

    public GmsEndpoints {
        partitions = GmsAddresses.requireValid(partitions);
    }

    /**
     * Parses a partition list.
     *
     * @throws IllegalArgumentException with a message fit for a user if an entry is not {@code host:port}
     */
    public static GmsEndpoints parse(String text) {
        return new GmsEndpoints(GmsAddresses.parse(text, GmsEndpoints::replica));
    }

    private static InetSocketAddress replica(String text) {
        ApiAddress address = ApiAddress.parse(text);
        if (address.kind() != ApiAddress.Kind.TCP) {
            throw new IllegalArgumentException("a GMS replica listens on TCP; give host:port");
        }
        return new InetSocketAddress(address.host(), address.port());
    }

    /** Picocli converter for {@code --gms}. */
    public static final class Converter extends ParsingConverter<GmsEndpoints> {
        public Converter() {
            super(GmsEndpoints::parse);
        }
    }
}
