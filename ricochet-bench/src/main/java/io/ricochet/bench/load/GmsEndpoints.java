package io.ricochet.bench.load;

import io.ricochet.client.ApiAddress;
import io.ricochet.support.ParsingConverter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The GMS partitions written as {@code host:port,host:port,...} in partition order, as the daemon takes them.
 *
 * @param partitions the partitions' addresses, in partition order
 */
public record GmsEndpoints(List<InetSocketAddress> partitions) {

    public GmsEndpoints {
        partitions = List.copyOf(partitions);
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("at least one GMS partition is needed");
        }
    }

    /**
     * Parses a partition list.
     *
     * @throws IllegalArgumentException with a message fit for a user if an entry is not {@code host:port}
     */
    public static GmsEndpoints parse(String text) {
        List<InetSocketAddress> partitions = new ArrayList<>();
        for (String item : text.split(",", -1)) {
            ApiAddress address;
            try {
                address = ApiAddress.parse(item.strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("GMS partition '" + item.strip() + "': " + e.getMessage());
            }
            if (address.kind() != ApiAddress.Kind.TCP) {
                throw new IllegalArgumentException("GMS partition '" + item.strip() + "': a GMS partition listens "
                        + "on TCP; give host:port");
            }
            partitions.add(new InetSocketAddress(address.host(), address.port()));
        }
        return new GmsEndpoints(partitions);
    }

    /** Picocli converter for {@code --gms}. */
    public static final class Converter extends ParsingConverter<GmsEndpoints> {
        public Converter() {
            super(GmsEndpoints::parse);
        }
    }
}
