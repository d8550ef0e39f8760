package io.ricochet.bench.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.bench.load.JsonFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A real link for a run's members (docs: /work/shared/NETWORK-TESTING.md, "Hosts as network namespaces on a private
 * bridge"): a bridge in a namespace of its own ({@code vsjg-br}, multicast flooded: {@code mcast_snooping 0}), and a
 * namespace per member ({@code vsjg-m<id>}, address {@code 198.18.0.<id>}) and one for Ricochet's GMS
 * ({@code vsjg-gms}, {@code 198.18.0.250}), each joined to the bridge by a veth pair whose both ends have the link's
 * MTU. Nothing is made in the host's namespace and nothing is attached to a real interface; deleting the namespaces,
 * by name, removes everything ({@link #close}, also from a shutdown hook on ctrl-C). Needs root, {@code ip} and
 * {@code nft} and {@code ethtool} ({@link #checkTools}).
 *
 * <p>Loss is the network's and the same for both systems ({@link #setLoss}): an nftables {@code netdev} table on the
 * egress of the bridge's port to a receiver (the link's far end), before IP reassembly, drops each UDP IP packet
 * (multicast and unicast, each fragment on its own) with the given probability; a fragmented datagram is lost whole
 * when any of its fragments is. A UDP GSO send is cut into its datagrams before the link ({@code gso_max_segs 1}), and
 * a member's veth does GRO, as a NIC's segmentation and its driver's GRO would. Named
 * counters tell packets seen and dropped, fragments apart; the namespace's {@code /proc/net/snmp} tells what the
 * kernel lost besides (receive buffers full, reassemblies failed), so real loss is never taken for injected loss.
 * The namespaces live for the whole run, so a reassembly a trial left incomplete times out (ipfrag_time, 30 s) and
 * counts as {@code ReasmFails} in a later trial: read that counter beside {@code nft.frag_seen} of the same trial.
 *
 * <p>The command lines are built by pure methods (tested) and run by {@link #run}.
 */
final class NetLab implements AutoCloseable {
    /** Every namespace of a run starts with this. */
    static final String PREFIX = "vsjg-";
    static final String BRIDGE_NS = PREFIX + "br";
    static final String GMS_NS = PREFIX + "gms";
    static final String TABLE = "vsjg_loss";
    /** Loss is drawn per million packets. */
    static final int LOSS_SCALE = 1_000_000;
    /** The kernel counters read per namespace: "Section.Name" of /proc/net/snmp. */
    static final List<String> SNMP = List.of("Udp.InDatagrams", "Udp.InErrors", "Udp.RcvbufErrors",
            "Ip.ReasmReqds", "Ip.ReasmOKs", "Ip.ReasmFails");
    private static final ObjectMapper JSON = JsonFiles.MAPPER;

    private final int members;
    private final int mtu;
    private final List<String> created = new ArrayList<>();
    private final Thread hook = new Thread(this::teardown, "netlab-teardown");
    private boolean closed;

    private NetLab(int members, int mtu) {
        this.members = members;
        this.mtu = mtu;
    }

    /** The namespace of member {@code id}. */
    static String memberNs(int id) {
        return PREFIX + "m" + id;
    }

    /**
     * Checks that this process may build the link: root, and {@code ip} and {@code nft} on the PATH.
     *
     * @throws IllegalStateException saying what is missing and how to get it
     */
    static void checkTools() {
        String user = System.getProperty("user.name");
        boolean root = "root".equals(user);
        try {
            Process id = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
            root = new String(id.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip().equals("0");
            id.waitFor();
        } catch (IOException | InterruptedException e) {
            // keep the guess from user.name
        }
        if (!root) {
            throw new IllegalStateException("a real link (--link mtu=N) needs root: it creates network namespaces, "
                    + "veth pairs and nftables tables (run as root, or use --link loopback)");
        }
        for (String[] tool : new String[][] {{"ip", "iproute2"}, {"nft", "nftables"}, {"ethtool", "ethtool"}}) {
            if (!onPath(tool[0])) {
                throw new IllegalStateException("a real link needs '" + tool[0] + "': apt-get install -y " + tool[1]);
            }
        }
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /** Namespaces of an earlier run still there (a run killed hard): this one refuses to start over them. */
    static List<String> leftovers() throws IOException {
        Path dir = Path.of("/var/run/netns");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (var names = Files.list(dir)) {
            return names.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(PREFIX)).sorted().toList();
        }
    }

    /** Builds the link for members 1..{@code members} at {@code mtu}; on any failure removes what it made. */
    static NetLab up(int members, int mtu) throws IOException {
        checkTools();
        List<String> old = leftovers();
        if (!old.isEmpty()) {
            throw new IllegalStateException("network namespaces of another vs-jgroups run exist: " + old + "; if no "
                    + "run is going on, remove them: " + String.join("; ", old.stream().map(n -> "ip netns del " + n)
                    .toList()));
        }
        NetLab lab = new NetLab(members, mtu);
        Runtime.getRuntime().addShutdownHook(lab.hook);
        try {
            for (List<String> command : lab.setupCommands()) {
                if (command.size() == 4 && command.get(1).equals("netns") && command.get(2).equals("add")) {
                    lab.created.add(command.get(3));
                }
                run(command, null);
            }
        } catch (IOException | RuntimeException e) {
            lab.close();
            throw e;
        }
        return lab;
    }

    /** Every command that builds the link, in order. */
    List<List<String>> setupCommands() {
        List<List<String>> commands = new ArrayList<>();
        commands.add(List.of("ip", "netns", "add", BRIDGE_NS));
        commands.add(List.of("ip", "-n", BRIDGE_NS, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0"));
        commands.add(List.of("ip", "-n", BRIDGE_NS, "link", "set", "br0", "up"));
        for (int id = 1; id <= members; id++) {
            host(commands, memberNs(id), port(id), MemberPlan.LINK_SUBNET + "." + id);
        }
        host(commands, GMS_NS, "pg", MemberPlan.LINK_GMS_ADDRESS);
        commands.add(List.of("ip", "-n", BRIDGE_NS, "link", "set", "br0", "mtu", Integer.toString(mtu)));
        return commands;
    }

    private void host(List<List<String>> commands, String ns, String port, String address) {
        String m = Integer.toString(mtu);
        String dev = MemberPlan.LINK_INTERFACE;
        commands.add(List.of("ip", "netns", "add", ns));
        // gso_max_segs 1 on both ends: a UDP GSO send (Ricochet's runs of datagrams to one address) is cut into its
        // datagrams before it enters the link, as a NIC's segmentation does before the wire, so the loss below
        // draws once per datagram; a veth would otherwise carry the whole run as one packet and drop it whole.
        commands.add(List.of("ip", "-n", BRIDGE_NS, "link", "add", port, "gso_max_segs", "1", "type", "veth",
                "peer", "name", dev, "netns", ns, "gso_max_segs", "1"));
        commands.add(List.of("ip", "-n", BRIDGE_NS, "link", "set", port, "mtu", m));
        commands.add(List.of("ip", "-n", BRIDGE_NS, "link", "set", port, "master", "br0", "up"));
        commands.add(List.of("ip", "-n", ns, "link", "set", "lo", "up"));
        commands.add(List.of("ip", "-n", ns, "link", "set", dev, "mtu", m));
        commands.add(List.of("ip", "-n", ns, "addr", "add", address + "/24", "dev", dev));
        commands.add(List.of("ip", "-n", ns, "link", "set", dev, "up"));
        // GRO on the member's end, as a NIC's driver does: datagrams of one run that arrive together reach a socket
        // that asks for UDP GRO (Ricochet's) as one; IP fragments (JGroups' bundles) are not merged.
        commands.add(List.of("ip", "netns", "exec", ns, "ethtool", "-K", dev, "gro", "on"));
        commands.add(List.of("ip", "-n", ns, "route", "add", "224.0.0.0/4", "dev", dev));
    }

    /** The command that removes {@code ns}. */
    static List<String> deleteCommand(String ns) {
        return List.of("ip", "netns", "del", ns);
    }

    /** What runs a command in {@code ns}: this prefix, then the command. */
    static List<String> inNamespace(String ns) {
        return List.of("ip", "netns", "exec", ns);
    }

    /**
     * The nftables ruleset that drops each UDP IP packet the bridge sends to member {@code id} (the egress of its
     * port, {@code p<id>}, in the bridge's namespace: the link's far end) with probability {@code rate}, fragments one
     * by one, with its counters (replacing the table if there is one). On the link, not at the member's own device:
     * the member's veth does GRO (as a NIC does), which would otherwise merge datagrams before the hook.
     */
    static String lossRuleset(int id, double rate) {
        long perMillion = perMillion(rate);
        String table = table(id);
        StringBuilder s = new StringBuilder();
        s.append("table netdev ").append(table).append('\n');
        s.append("delete table netdev ").append(table).append('\n');
        s.append("table netdev ").append(table).append(" {\n");
        for (String counter : List.of("udp_seen", "frag_seen", "udp_dropped", "frag_dropped")) {
            s.append("  counter ").append(counter).append(" { }\n");
        }
        s.append("  chain egress {\n");
        s.append("    type filter hook egress device \"").append(port(id)).append("\" priority 0; policy accept;\n");
        s.append("    ip protocol udp counter name \"udp_seen\"\n");
        s.append("    ip protocol udp ip frag-off & 0x3fff != 0 counter name \"frag_seen\"\n");
        if (perMillion > 0) {
            // One draw per packet: a fragment (MF set or an offset) by the first rule, a whole datagram by the second.
            s.append("    ip protocol udp ip frag-off & 0x3fff != 0 numgen random mod ").append(LOSS_SCALE)
                    .append(" < ").append(perMillion).append(" counter name \"frag_dropped\" drop\n");
            s.append("    ip protocol udp ip frag-off & 0x3fff == 0 numgen random mod ").append(LOSS_SCALE)
                    .append(" < ").append(perMillion).append(" counter name \"udp_dropped\" drop\n");
        }
        s.append("  }\n}\n");
        return s.toString();
    }

    /** Member {@code id}'s loss table, in the bridge's namespace. */
    static String table(int id) {
        return TABLE + "_" + id;
    }

    /** Member {@code id}'s port on the bridge. */
    static String port(int id) {
        return "p" + id;
    }

    /** {@code rate} in packets per million, refused outside [0, 0.5]. */
    static long perMillion(double rate) {
        if (!(rate >= 0 && rate <= 0.5)) {
            throw new IllegalArgumentException("loss = " + rate + ": must be a rate in [0, 0.5], e.g. 0.01 for 1 %");
        }
        return Math.round(rate * LOSS_SCALE);
    }

    /** Installs loss {@code rate} on the link to member {@code id}, its counters at zero; 0 drops nothing. */
    void setLoss(int id, double rate) throws IOException {
        List<String> command = new ArrayList<>(inNamespace(BRIDGE_NS));
        command.addAll(List.of("nft", "-f", "-"));
        run(command, lossRuleset(id, rate));
    }

    /** Removes member {@code id}'s loss table, if any. */
    void clearLoss(int id) throws IOException {
        List<String> command = new ArrayList<>(inNamespace(BRIDGE_NS));
        command.addAll(List.of("nft", "-f", "-"));
        run(command, "table netdev " + table(id) + "\ndelete table netdev " + table(id) + "\n");
    }

    /** The loss table's counters of the link to member {@code id} ("nft.udp_seen" ...); empty without a table. */
    Map<String, Long> nftCounters(int id) throws IOException {
        List<String> command = new ArrayList<>(inNamespace(BRIDGE_NS));
        command.addAll(List.of("nft", "-j", "list", "table", "netdev", table(id)));
        return parseNftCounters(run(command, null));
    }

    /** The named counters in {@code nft -j list table} output. */
    static Map<String, Long> parseNftCounters(String json) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        JsonNode root = JSON.readTree(json);
        for (JsonNode entry : root.path("nftables")) {
            JsonNode counter = entry.get("counter");
            if (counter != null && counter.isObject() && counter.has("name")) {
                counts.put("nft." + counter.get("name").asText(), counter.path("packets").asLong());
            }
        }
        return counts;
    }

    /** The kernel's counters of {@link #SNMP} in member {@code id}'s namespace. */
    Map<String, Long> snmp(int id) throws IOException {
        List<String> command = new ArrayList<>(inNamespace(memberNs(id)));
        command.addAll(List.of("cat", "/proc/net/snmp"));
        return parseSnmp(run(command, null));
    }

    /** The counters of {@link #SNMP} in the text of a /proc/net/snmp ("Ip: names" then "Ip: values", ...). */
    static Map<String, Long> parseSnmp(String text) {
        Map<String, Long> all = new LinkedHashMap<>();
        String[] lines = text.split("\n");
        for (int i = 0; i + 1 < lines.length; i++) {
            String[] names = lines[i].trim().split("\\s+");
            String[] values = lines[i + 1].trim().split("\\s+");
            if (names.length < 2 || !names[0].equals(values[0]) || !names[0].endsWith(":")
                    || names.length != values.length || !values[1].matches("-?\\d+")) {
                continue;
            }
            String section = names[0].substring(0, names[0].length() - 1);
            for (int k = 1; k < names.length; k++) {
                all.put(section + "." + names[k], Long.parseLong(values[k]));
            }
            i++;
        }
        Map<String, Long> wanted = new LinkedHashMap<>();
        for (String name : SNMP) {
            wanted.put("kernel." + name, all.getOrDefault(name, 0L));
        }
        return wanted;
    }

    /**
     * Runs {@code command}, {@code input} on its standard input if not null, and returns its standard output.
     *
     * @throws IOException naming the command and what it wrote, if it fails or takes more than 30 s
     */
    static String run(List<String> command, String input) throws IOException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.PIPE).start();
        try (OutputStream in = p.getOutputStream()) {
            if (input != null) {
                in.write(input.getBytes(StandardCharsets.UTF_8));
            }
        }
        try {
            byte[] out = p.getInputStream().readAllBytes();
            byte[] err = p.getErrorStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + ": took more than 30 s");
            }
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed (" + p.exitValue() + "): "
                        + new String(err, StandardCharsets.UTF_8).strip());
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
    }

    /** The link's MTU. */
    int mtu() {
        return mtu;
    }

    /** "mtu=1500": how the tables name the link. */
    String describe() {
        return String.format(Locale.ROOT, "mtu=%d", mtu);
    }

    /** Removes every namespace this made, by name (members first, the bridge last); never throws. */
    private synchronized void teardown() {
        if (closed) {
            return;
        }
        closed = true;
        List<String> order = new ArrayList<>(created);
        order.remove(BRIDGE_NS);
        if (created.contains(BRIDGE_NS)) {
            order.add(BRIDGE_NS);
        }
        for (String ns : order) {
            try {
                run(deleteCommand(ns), null);
            } catch (IOException e) {
                System.err.println("vs-jgroups: could not remove namespace " + ns + ": " + e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        teardown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down: the hook runs (or ran) teardown, which did nothing twice
        }
    }
}
