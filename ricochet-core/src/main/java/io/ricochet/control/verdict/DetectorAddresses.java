package io.ricochet.control.verdict;

import io.ricochet.wire.HeartbeatFlyweight;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Pattern;

/**
 * The failure detectors whose heartbeats a process answers, and where (a daemon's {@code failure-detectors}
 * setting, a detector's {@code --watched-by}):
 * each detector's name, its {@code --id}, whose wire id ({@link HeartbeatFlyweight#detectorWireId}) its HEARTBEATs
 * carry as their source, and its {@code --bind} address, from which its heartbeats leave and where its acks arrive.
 * A HEARTBEAT_ACK then goes only to the listed address of the detector the heartbeat names, never to the datagram's
 * source address, which anyone on the path can rewrite (docs/design/security.md, "Bound to the receiver").
 * {@link #NONE} (the setting empty, the default): every heartbeat is answered to its source address.
 */
public final class DetectorAddresses {
    /** No list: heartbeats are answered to their source address. */
    public static final DetectorAddresses NONE = new DetectorAddresses(Map.of());
    /** The syntax of the setting, for messages. */
    public static final String SYNTAX = "ID@HOST:PORT[,ID@HOST:PORT...], each detector's --id and --bind address";

    /** Detector names: what ricochet-fd's {@code --id} accepts ({@code fd.Endpoints.detectorName}). */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /** By wire id, in the order listed. */
    private final Map<Integer, Detector> byWireId;

    /** One listed detector. */
    private record Detector(String name, InetSocketAddress address) {
    }

    private DetectorAddresses(Map<Integer, Detector> byWireId) {
        this.byWireId = Collections.unmodifiableMap(byWireId);
    }

    /**
     * Parses {@code id@host:port,...} (empty or blank: {@link #NONE}). A host is an IPv4 address or a name resolved
     * now to one: the heartbeat socket is on the daemon's IPv4 address.
     *
     * @throws IllegalArgumentException saying what is wrong with the text: a bad name, host or port, a detector listed
     *     twice, two names with the same wire id, two detectors at one address
     */
    public static DetectorAddresses parse(String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        Map<Integer, Detector> detectors = new LinkedHashMap<>();
        for (String item : text.split(",", -1)) {
            Detector detector = detector(item.strip());
            int wireId = HeartbeatFlyweight.detectorWireId(detector.name());
            Detector clash = detectors.putIfAbsent(wireId, detector);
            if (clash != null) {
                throw new IllegalArgumentException(clash.name().equals(detector.name())
                        ? "detector " + detector.name() + " is listed twice"
                        : "detectors " + clash.name() + " and " + detector.name() + " have the same wire id "
                                + wireId + ": rename one");
            }
            for (Detector other : detectors.values()) {
                if (other != detector && other.address().equals(detector.address())) {
                    throw new IllegalArgumentException("detectors " + other.name() + " and " + detector.name()
                            + " are both listed at " + format(detector.address()));
                }
            }
        }
        return new DetectorAddresses(new LinkedHashMap<>(detectors));
    }

    private static Detector detector(String item) {
        int at = item.indexOf('@');
        int colon = item.lastIndexOf(':');
        if (at < 1 || colon < at + 2 || colon == item.length() - 1) {
            throw new IllegalArgumentException("'" + item + "' is not ID@HOST:PORT");
        }
        String name = item.substring(0, at);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("detector id '" + name
                    + "' must be 1 to 64 characters from A-Z, a-z, 0-9, '.', '_' and '-' (its --id)");
        }
        String host = item.substring(at + 1, colon);
        int port;
        try {
            port = Integer.parseInt(item.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port '" + item.substring(colon + 1) + "' of detector " + name
                    + " must be a number in 1..65535");
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host '" + host + "' of detector " + name);
        }
        if (!(address instanceof Inet4Address)) {
            throw new IllegalArgumentException("detector " + name + " at " + host + ": must be an IPv4 address, "
                    + "as the heartbeat socket is on this node's IPv4 address");
        }
        return new Detector(name, new InetSocketAddress(address, port));
    }

    /** Where the ACK of a heartbeat goes ({@link #route}). */
    public enum Route {
        /** No detector is listed: to the heartbeat's source address. */
        SOURCE,
        /** To the detector's listed address, which the heartbeat came from. */
        LISTED,
        /** To the detector's listed address, though the heartbeat came from another (a rewritten source). */
        REDIRECTED,
        /** Nowhere: detectors are listed, this one is not. */
        UNLISTED
    }

    /** Where the ACK of the heartbeat of detector {@code wireId} that came from {@code sender} goes. */
    public Route route(int wireId, InetSocketAddress sender) {
        if (isEmpty()) {
            return Route.SOURCE;
        }
        InetSocketAddress listed = address(wireId);
        return listed == null ? Route.UNLISTED : listed.equals(sender) ? Route.LISTED : Route.REDIRECTED;
    }

    /** The address of {@code route} for detector {@code wireId}'s heartbeat from {@code sender}; null if UNLISTED. */
    public InetSocketAddress ackAddress(Route route, int wireId, InetSocketAddress sender) {
        return route == Route.SOURCE ? sender : address(wireId);
    }

    /** Whether no detector is listed (heartbeats are answered to their source address). */
    public boolean isEmpty() {
        return byWireId.isEmpty();
    }

    /** The listed address of the detector whose wire id is {@code wireId}, or null if none is listed with it. */
    public InetSocketAddress address(int wireId) {
        Detector detector = byWireId.get(wireId);
        return detector == null ? null : detector.address();
    }

    /** The name of the detector listed with {@code wireId}, or its wire id in decimal if none is, for logs. */
    public String name(int wireId) {
        Detector detector = byWireId.get(wireId);
        return detector == null ? "with wire id " + wireId : detector.name();
    }

    /** The setting's text, {@code id@host:port,...} as it parses ({@code ""} when empty). */
    @Override
    public String toString() {
        StringJoiner text = new StringJoiner(",");
        byWireId.values().forEach(d -> text.add(d.name() + "@" + format(d.address())));
        return text.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DetectorAddresses other && byWireId.equals(other.byWireId);
    }

    @Override
    public int hashCode() {
        return byWireId.hashCode();
    }

    private static String format(InetSocketAddress address) {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }
}
