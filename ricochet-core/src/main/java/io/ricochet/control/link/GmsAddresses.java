package io.ricochet.control.link;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Where the GMS's clients find it: per partition, in partition order, the control addresses of the partition's
 * replicas ({@code List<List<InetSocketAddress>>}, as {@link GmsClient} and
 * {@link io.ricochet.control.verdict.GmsFailureReporter} take it).
 * As text (the daemon's {@code gms} key, {@code ricochet-fd --gms}, {@code bench load --gms}) the replicas of a
 * partition are separated by '/' and the partitions by ',', e.g. for 2 partitions of 3 replicas each:
 * <pre>10.0.0.1:7100/10.0.0.2:7100/10.0.0.3:7100,10.0.0.1:7101/10.0.0.2:7101/10.0.0.3:7101</pre>
 * An unreplicated GMS is one replica per partition: {@code host:port,host:port}. Every replica of every partition
 * has an address of its own (a replica greets a session before the client says anything, so one address serves one
 * partition).
 */
public final class GmsAddresses {
    /** How to write the list, for error messages and help texts. */
    public static final String SYNTAX = "write each partition as its replicas host:port/host:port/... and separate "
            + "the partitions with ',', in partition order (e.g. 10.0.0.1:7100/10.0.0.2:7100,10.0.0.1:7101/"
            + "10.0.0.2:7101; one replica per partition is host:port,host:port)";

    private GmsAddresses() {
    }

    /**
     * Parses the text form, each address with {@code hostPort} (which throws {@link IllegalArgumentException} with
     * a message for the user).
     *
     * @throws IllegalArgumentException saying what is wrong and how to write it
     */
    public static List<List<InetSocketAddress>> parse(String text, Function<String, InetSocketAddress> hostPort) {
        if (text.isBlank()) {
            throw new IllegalArgumentException("no GMS partition given: " + SYNTAX);
        }
        String[] partitionTexts = text.split(",", -1);
        List<List<InetSocketAddress>> partitions = new ArrayList<>();
        for (int p = 0; p < partitionTexts.length; p++) {
            String partition = partitionTexts[p].strip();
            if (partition.isEmpty()) {
                throw new IllegalArgumentException("partition " + p + " is empty (two ',' in a row, or one at an "
                        + "end): " + SYNTAX);
            }
            List<InetSocketAddress> replicas = new ArrayList<>();
            for (String replicaText : partition.split("/", -1)) {
                String replica = replicaText.strip();
                if (replica.isEmpty()) {
                    throw new IllegalArgumentException("partition " + p + " ('" + partition + "') has an empty "
                            + "replica (two '/' in a row, or one at an end): " + SYNTAX);
                }
                try {
                    replicas.add(hostPort.apply(replica));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("replica '" + replica + "' of partition " + p + ": "
                            + e.getMessage() + "; " + SYNTAX);
                }
            }
            partitions.add(replicas);
        }
        return requireValid(partitions);
    }

    /** One replica per partition: {@code partitions} in partition order, each partition not replicated. */
    public static List<List<InetSocketAddress>> oneEach(List<InetSocketAddress> partitions) {
        return requireValid(partitions.stream().map(List::of).toList());
    }

    /**
     * Checks that there is at least one partition, each with at least one replica, and that no address is listed
     * twice; returns an unmodifiable copy.
     *
     * @throws IllegalArgumentException naming the first problem
     */
    public static List<List<InetSocketAddress>> requireValid(List<List<InetSocketAddress>> partitions) {
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("at least one GMS partition is needed");
        }
        Map<InetSocketAddress, Integer> seen = new HashMap<>();
        List<List<InetSocketAddress>> copy = new ArrayList<>();
        for (int p = 0; p < partitions.size(); p++) {
            List<InetSocketAddress> replicas = List.copyOf(partitions.get(p));
            if (replicas.isEmpty()) {
                throw new IllegalArgumentException("GMS partition " + p + " has no replica address");
            }
            for (InetSocketAddress replica : replicas) {
                Integer other = seen.putIfAbsent(replica, p);
                if (other != null) {
                    throw new IllegalArgumentException(format(replica) + " is listed twice ("
                            + (other == p ? "in partition " + p : "in partitions " + other + " and " + p)
                            + "): every replica of every partition has an address of its own");
                }
            }
            copy.add(replicas);
        }
        return List.copyOf(copy);
    }

    /** The text form of {@code partitions}, as {@link #parse} reads it. */
    public static String format(List<List<InetSocketAddress>> partitions) {
        return partitions.stream()
                .map(replicas -> replicas.stream().map(GmsAddresses::format).collect(Collectors.joining("/")))
                .collect(Collectors.joining(","));
    }

    /** {@code host:port} of one address, without resolving it; an IPv6 host in brackets. */
    public static String format(InetSocketAddress address) {
        String host = address.getAddress() == null ? address.getHostString() : address.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
    }
}
