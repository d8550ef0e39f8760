package io.ricochet.bench.compare;

import java.util.List;
import java.util.Map;
import org.jgroups.conf.ConfiguratorFactory;
import org.jgroups.conf.ProtocolConfiguration;
import org.jgroups.conf.ProtocolStackConfigurator;

/**
 * The JGroups protocol stack of one group's channel: the stock {@code udp.xml} from the JGroups jar, changed only
 * where the experiment needs it: bound to 127.0.0.1 with multicast TTL 0 or 1 (no traffic leaves loopback), a
 * multicast address and port per group (channels of different groups never hear each other), the diagnostics socket
 * off (it would join a multicast group on every interface), GMS's address banner off, and in the tuned variant
 * NAKACK2's {@code xmit_interval} at 100 ms (stock: 500 ms).
 */
final class JGroupsStack {
    /** The stock configuration, from the JGroups jar. */
    static final String STOCK = "udp.xml";
    /** The tuned variant's retransmission interval. */
    static final String TUNED_XMIT_INTERVAL = "100ms";

    private JGroupsStack() {
    }

    /** The stack of {@code group}'s channel for {@code plan}. */
    static ProtocolStackConfigurator of(MemberPlan plan, int group, boolean tuned) throws Exception {
        ProtocolStackConfigurator stock = ConfiguratorFactory.getStackConfigurator(STOCK);
        List<ProtocolConfiguration> protocols = stock.getProtocolStack();
        for (ProtocolConfiguration protocol : protocols) {
            Map<String, String> properties = protocol.getProperties();
            String name = protocol.getProtocolName();
            if (name.equals("UDP")) {
                properties.put("bind_addr", "127.0.0.1");
                properties.put("mcast_addr", "239.8." + (group >> 8) + "." + (group & 0xFF));
                properties.put("mcast_port", Integer.toString(plan.jgroupsPort(group)));
                properties.put("ip_ttl", Integer.toString(plan.ttl()));
                properties.put("diag.enabled", "false");
            } else if (name.endsWith("GMS")) {
                properties.put("print_local_addr", "false"); // its banner would go to standard output
            } else if (tuned && name.endsWith("NAKACK2")) {
                properties.put("xmit_interval", TUNED_XMIT_INTERVAL);
            }
        }
        return new ProtocolStackConfigurator() {
            @Override
            public String getProtocolStackString() {
                return stock.getProtocolStackString();
            }

            @Override
            public List<ProtocolConfiguration> getProtocolStack() {
                return protocols;
            }
        };
    }
}
