package io.ricochet.bench.compare;

import io.ricochet.control.Partitioning;
import io.ricochet.gms.GmsConfig;
import io.ricochet.gms.GmsServer;
import io.ricochet.gms.MulticastPool;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The one GMS partition of a Ricochet trial, in the trial's JVM on 127.0.0.1 (plaintext, as the daemons are
 * insecure), handing out multicast addresses from 239.77.0.0/16 on the trial's Ricochet multicast port.
 */
final class RicochetGms {
    /** The multicast pool's base. */
    static final String POOL_BASE = "239.77.0.0";

    private RicochetGms() {
    }

    /** Starts the partition for {@code plan}'s trial. */
    static GmsServer start(MemberPlan plan) throws Exception {
        MulticastPool pool = new MulticastPool((Inet4Address) InetAddress.getByName(POOL_BASE),
                plan.ricochetMulticastPort());
        GmsServer gms = new GmsServer(new GmsConfig(new Partitioning(0, 1),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), plan.gmsPort()), pool,
                GmsConfig.DEFAULT_STATS_INTERVAL_SECONDS));
        gms.start();
        return gms;
    }
}
