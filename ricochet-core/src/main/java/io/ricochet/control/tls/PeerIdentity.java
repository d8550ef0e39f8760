package io.ricochet.control.tls;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Who is at the other end of a control link, as its certificate says: the subject's OU is the {@link Role} and its
 * CN the name ({@code node-7} for the daemon of node 7, a detector's {@code --id}, {@code gms-p0} for GMS partition
 * 0). The CA that signed the certificate vouches for both; nothing the peer sends can change them.
 *
 * @param role    what the peer may do, from the OU ({@link Role#OTHER} for any other or a missing OU)
 * @param name    the CN, or an empty string if it has none
 * @param subject the certificate's subject as RFC 2253 text, for logs
 */
public record PeerIdentity(Role role, String name, String subject) {
    /** Where a channel's peer identity is kept once read; a test may set it on an embedded channel. */
    public static final AttributeKey<PeerIdentity> KEY = AttributeKey.valueOf("ricochet.control.peer");
    private static final Pattern NODE = Pattern.compile("node-(0|[1-9][0-9]{0,9})");

    /** The roles of the control protocol, named by the lower-case OU of a certificate. */
    public enum Role {
        /** A GMS partition: the only role a daemon or detector accepts as its server. */
        GMS,
        /** A daemon: may REGISTER as its own node id, JOIN and LEAVE. */
        DAEMON,
        /** A failure detector: may report NODE_FAILED, NODE_RECOVERED, DETECTOR_FAILED, DETECTOR_RECOVERED. */
        DETECTOR,
        /** Any other OU: may do nothing. */
        OTHER;

        /** The OU that names this role ({@code gms}, {@code daemon}, {@code detector}). */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Role of(String ou) {
            for (Role r : values()) {
                if (r != OTHER && r.label().equals(ou)) {
                    return r;
                }
            }
            return OTHER;
        }
    }

    public PeerIdentity {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(subject, "subject");
    }

    /** The identity of the daemon of {@code nodeId}: role daemon, CN {@code node-<nodeId>}. */
    public static PeerIdentity daemon(int nodeId) {
        return new PeerIdentity(Role.DAEMON, nodeName(nodeId), "CN=" + nodeName(nodeId) + ",OU=daemon");
    }

    /** The CN a daemon's certificate carries: {@code node-<nodeId>}. */
    public static String nodeName(int nodeId) {
        return "node-" + nodeId;
    }

    /** The identity {@code certificate}'s subject names; a subject with several OUs or CNs is role OTHER. */
    public static PeerIdentity of(X509Certificate certificate) {
        String subject = certificate.getSubjectX500Principal().getName();
        String ou = null;
        String cn = null;
        boolean ambiguous = false;
        try {
            for (Rdn rdn : new LdapName(subject).getRdns()) {
                String type = rdn.getType().toUpperCase(Locale.ROOT);
                String value = String.valueOf(rdn.getValue());
                if (type.equals("OU")) {
                    ambiguous |= ou != null;
                    ou = value;
                } else if (type.equals("CN")) {
                    ambiguous |= cn != null;
                    cn = value;
                }
            }
        } catch (InvalidNameException e) {
            ambiguous = true;
        }
        Role role = ambiguous || ou == null ? Role.OTHER : Role.of(ou);
        return new PeerIdentity(role, cn == null ? "" : cn, subject);
    }

    /**
     * The identity of {@code channel}'s peer: set on the channel, or read from its TLS session (and then kept).
     * Null for a plaintext channel, or one whose handshake has not completed.
     */
    public static PeerIdentity of(Channel channel) {
        PeerIdentity known = channel.attr(KEY).get();
        if (known != null) {
            return known;
        }
        SslHandler tls = channel.pipeline().get(SslHandler.class);
        if (tls == null || !tls.handshakeFuture().isSuccess()) {
            return null;
        }
        try {
            Certificate[] chain = tls.engine().getSession().getPeerCertificates();
            if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
                return null;
            }
            PeerIdentity identity = of(leaf);
            channel.attr(KEY).set(identity);
            return identity;
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
    }

    /** The node id of a daemon identity whose CN is {@code node-<id>}; empty for any other. */
    public OptionalInt nodeId() {
        Matcher m = NODE.matcher(name);
        if (role != Role.DAEMON || !m.matches()) {
            return OptionalInt.empty();
        }
        long id = Long.parseLong(m.group(1));
        return id <= Integer.MAX_VALUE ? OptionalInt.of((int) id) : OptionalInt.empty();
    }

    /** For logs: e.g. {@code daemon node-3}. */
    @Override
    public String toString() {
        return role == Role.OTHER ? "'" + subject + "' (no known role)" : role.label() + " " + name;
    }
}
