package io.ricochet.control.message;

import io.ricochet.control.codec.Ipv4;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * One region of a {@link GroupView}: the IPv4 {@code multicast} address (and port) the region's members listen on
 * and the {@code members} (node ids, ascending, each a member of the view) it holds. A message to the group goes
 * once to each region's address; see {@code docs/design/regions.md}.
 */
public record ViewRegion(InetSocketAddress multicast, List<Integer> members) {
    public ViewRegion {
        Ipv4.require(multicast, "region multicast");
        members = members.stream().sorted().distinct().toList();
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a region has at least one member");
        }
    }
}
