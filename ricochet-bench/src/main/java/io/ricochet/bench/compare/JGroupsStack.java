package io.ricochet.bench.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jgroups.conf.ConfiguratorFactory;
import org.jgroups.conf.ProtocolConfiguration;
import org.jgroups.conf.ProtocolStackConfigurator;

/**
 * The JGroups protocol stack of one group's channel, one per JGroups configuration the harness runs
 * ({@link SystemKind}). Every one starts from the stock {@code udp.xml} of the JGroups jar and changes only what the
 * experiment needs: bound to the member's address (127.0.0.1 on loopback, its veth's address on a link) with
 * multicast TTL 0 or 1 (no traffic leaves the link), a multicast address and port per group (channels of different
 * groups never hear each other), the diagnostics socket off (it would join a multicast group on every interface) and
 * GMS's address banner off. Then, per configuration:
 * <ul>
 *   <li>{@code jgroups}: nothing more. Stock bundles messages into datagrams of up to 64 KB
 *       ({@code bundler.max_size}) and FRAG2 cuts messages at 60 KB: on a 1 500-byte link such a datagram is ~44 IP
 *       fragments, and losing one fragment loses the datagram; NAKACK2 then retransmits the whole bundle, every 500 ms
 *       ({@code xmit_interval}).</li>
 *   <li>{@code jgroups-tuned}: stock with NAKACK2 {@code xmit_interval} at 100 ms (kept for the earlier tables).</li>
 *   <li>{@code jgroups-link}: tuned for the link, as JGroups' advice for lossy networks goes ("if your transport is
 *       lossy ... set max_bundle_size" so that a datagram fits the MTU, wiki page MTU / DOC-11299): bundles of at
 *       most {@link #bundleBytes} (the link's largest UDP payload, MTU - 28, less {@link #TRANSPORT_HEADER_ALLOWANCE}
 *       for the transport's own header), so no datagram is fragmented by IP and a lost packet costs one small bundle;
 *       FRAG2 {@code frag_size} {@link #MESSAGE_HEADER_ALLOWANCE} below that, so one fragment with its protocol
 *       headers still fits a bundle; NAKACK2 {@code xmit_interval} 100 ms (a LAN's round trip is well under a
 *       millisecond; the stock 500 ms only waits).</li>
 *   <li>{@code jgroups-encrypt}: {@code jgroups-link} with {@code SYM_ENCRYPT} right below NAKACK2 (where its
 *       documentation places it, so NAKACK2's headers are protected too): AES/CBC/PKCS5Padding with a random 16-byte
 *       IV per message, 128-bit key from a keystore shared by all members ({@link JGroupsKeystore}). It encrypts the
 *       payload; JGroups 5.5 has no per-message MAC (AUTH authenticates joins only, and its Encrypt takes no GCM
 *       parameters), so this is JGroups' nearest to Ricochet's authenticated datagrams. The allowance for headers
 *       covers the IV and padding (at most 32 bytes).</li>
 * </ul>
 */
final class JGroupsStack {
    /** The stock configuration, from the JGroups jar. */
    static final String STOCK = "udp.xml";
    /** The tuned and link variants' retransmission interval (stock: 500 ms). */
    static final String TUNED_XMIT_INTERVAL = "100ms";
    /** IPv4 header and UDP header: a datagram of MTU - this many bytes fills one IP packet. */
    static final int IP_UDP_HEADERS = 28;
    /** Bytes left in a datagram for the transport's header (version, flags, cluster name, sender, count). */
    static final int TRANSPORT_HEADER_ALLOWANCE = 64;
    /** Bytes between FRAG2's frag_size and the bundle size: a message's protocol headers, SYM_ENCRYPT's IV/padding. */
    static final int MESSAGE_HEADER_ALLOWANCE = 200;
    /** Stock's bundle size; no configuration bundles more. */
    static final int STOCK_BUNDLE_BYTES = 64_000;
    /** The MTU of loopback, for {@code jgroups-link} on loopback. */
    static final int LOOPBACK_MTU = 65_536;
    /** SYM_ENCRYPT's cipher: CBC with a fresh IV per message (JGroups' default, plain "AES", is ECB). */
    static final String SYM_ALGORITHM = "AES/CBC/PKCS5Padding";

    private JGroupsStack() {
    }

    /** The largest bundle {@code jgroups-link} sends on a link of {@code mtu} bytes (0: loopback). */
    static int bundleBytes(int mtu) {
        int linkMtu = mtu == 0 ? LOOPBACK_MTU : mtu;
        return Math.min(STOCK_BUNDLE_BYTES, linkMtu - IP_UDP_HEADERS - TRANSPORT_HEADER_ALLOWANCE);
    }

    /** FRAG2's fragment size for {@code jgroups-link} on a link of {@code mtu} bytes (0: loopback). */
    static int fragBytes(int mtu) {
        return bundleBytes(mtu) - MESSAGE_HEADER_ALLOWANCE;
    }

    /** What a configuration changes from stock, for the tables. */
    static String describe(SystemKind kind, int mtu) {
        return switch (kind) {
            case JGROUPS -> "stock udp.xml";
            case JGROUPS_TUNED -> "udp.xml, NAKACK2 xmit_interval " + TUNED_XMIT_INTERVAL;
            case JGROUPS_LINK -> String.format(Locale.ROOT, "bundles <= %d B, FRAG2 %d B, xmit_interval %s",
                    bundleBytes(mtu), fragBytes(mtu), TUNED_XMIT_INTERVAL);
            case JGROUPS_ENCRYPT -> String.format(Locale.ROOT, "jgroups-link + SYM_ENCRYPT %s/%d",
                    SYM_ALGORITHM, JGroupsKeystore.KEY_BITS);
            default -> throw new IllegalArgumentException(kind + " is not JGroups");
        };
    }

    /** The protocols (bottom first) with their properties, of {@code group}'s channel for {@code plan}. */
    static List<ProtocolConfiguration> protocols(MemberPlan plan, int group) throws Exception {
        SystemKind kind = plan.system();
        boolean link = kind == SystemKind.JGROUPS_LINK || kind == SystemKind.JGROUPS_ENCRYPT;
        List<ProtocolConfiguration> protocols = new ArrayList<>(
                ConfiguratorFactory.getStackConfigurator(STOCK).getProtocolStack());
        for (ProtocolConfiguration protocol : protocols) {
            Map<String, String> properties = protocol.getProperties();
            String name = protocol.getProtocolName();
            if (name.equals("UDP")) {
                properties.put("bind_addr", plan.bindAddress());
                properties.put("mcast_addr", "239.8." + (group >> 8) + "." + (group & 0xFF));
                properties.put("mcast_port", Integer.toString(plan.jgroupsPort(group)));
                properties.put("ip_ttl", Integer.toString(plan.ttl()));
                properties.put("diag.enabled", "false");
                if (link) {
                    properties.put("bundler.max_size", Integer.toString(bundleBytes(plan.mtu())));
                }
            } else if (name.endsWith("GMS")) {
                properties.put("print_local_addr", "false"); // its banner would go to standard output
            } else if (name.endsWith("NAKACK2") && kind != SystemKind.JGROUPS) {
                properties.put("xmit_interval", TUNED_XMIT_INTERVAL);
            } else if (name.equals("FRAG2") && link) {
                properties.put("frag_size", Integer.toString(fragBytes(plan.mtu())));
            }
        }
        if (kind == SystemKind.JGROUPS_ENCRYPT) {
            if (plan.credentials() == null) {
                throw new IllegalStateException("jgroups-encrypt needs the run's credentials folder (its keystore)");
            }
            Map<String, String> encrypt = new LinkedHashMap<>();
            encrypt.put("keystore_name", JGroupsKeystore.file(plan.credentials()).toString());
            encrypt.put("keystore_type", "PKCS12");
            encrypt.put("store_password", JGroupsKeystore.PASSWORD);
            encrypt.put("key_password", JGroupsKeystore.PASSWORD);
            encrypt.put("alias", JGroupsKeystore.ALIAS);
            encrypt.put("sym_algorithm", SYM_ALGORITHM);
            encrypt.put("sym_iv_length", "16");
            int nakack = indexOf(protocols, "NAKACK2");
            protocols.add(nakack, new ProtocolConfiguration("SYM_ENCRYPT", encrypt));
        }
        return protocols;
    }

    private static int indexOf(List<ProtocolConfiguration> protocols, String suffix) {
        for (int i = 0; i < protocols.size(); i++) {
            if (protocols.get(i).getProtocolName().endsWith(suffix)) {
                return i;
            }
        }
        throw new IllegalStateException(STOCK + " has no " + suffix);
    }

    /** The stack of {@code group}'s channel for {@code plan}. */
    static ProtocolStackConfigurator of(MemberPlan plan, int group) throws Exception {
        List<ProtocolConfiguration> protocols = protocols(plan, group);
        return new ProtocolStackConfigurator() {
            @Override
            public String getProtocolStackString() {
                return protocols.toString();
            }

            @Override
            public List<ProtocolConfiguration> getProtocolStack() {
                return protocols;
            }
        };
    }
}
