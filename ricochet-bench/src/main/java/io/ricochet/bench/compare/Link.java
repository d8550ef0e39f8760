package io.ricochet.bench.compare;

import java.util.Locale;

/**
 * The network a trial's members talk over: {@code loopback} (every member on 127.0.0.x in one network namespace, loss
 * by each system's own injector) or {@code mtu=N} (a real link: each member in a namespace of its own, veth pairs of
 * MTU N on a bridge, loss by nftables at each receiver's ingress; {@link NetLab}).
 *
 * @param mtu 0 for loopback, else the link's MTU
 */
public record Link(int mtu) {
    public static final Link LOOPBACK = new Link(0);

    public Link {
        if (mtu != 0 && (mtu < MemberPlan.MIN_MTU || mtu > MemberPlan.MAX_MTU)) {
            throw new IllegalArgumentException("link mtu=" + mtu + ": must be in " + MemberPlan.MIN_MTU + ".."
                    + MemberPlan.MAX_MTU + " (e.g. 1500, 9000)");
        }
    }

    /**
     * The link named {@code text}: {@code loopback}, {@code mtu=N} or just {@code N}.
     *
     * @throws IllegalArgumentException saying what is accepted
     */
    public static Link parse(String text) {
        String value = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (value.equals("loopback") || value.equals("lo")) {
            return LOOPBACK;
        }
        String number = value.startsWith("mtu=") ? value.substring(4) : value;
        try {
            return new Link(Integer.parseInt(number));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("unknown link '" + text + "'; use loopback or mtu=N (e.g. mtu=1500)");
        }
    }

    /** Whether this is a real link. */
    public boolean real() {
        return mtu != 0;
    }

    @Override
    public String toString() {
        return mtu == 0 ? "loopback" : "mtu=" + mtu;
    }
}
