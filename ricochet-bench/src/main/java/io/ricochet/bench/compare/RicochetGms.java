package io.ricochet.bench.compare;

import io.ricochet.control.link.Partitioning;
import io.ricochet.control.tls.PeerIdentity;
import io.ricochet.control.tls.TlsSettings;
import io.ricochet.gms.GmsConfig;
import io.ricochet.gms.GmsMain;
import io.ricochet.gms.GmsServer;
import io.ricochet.gms.MulticastPool;
import io.ricochet.support.Directories;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The one GMS partition of a Ricochet trial, handing out multicast addresses from 239.77.0.0/16 on the trial's
 * Ricochet multicast port, with mutual TLS ({@code gms-p0}'s certificate from the run's CA) unless the trial runs the
 * insecure variant. On loopback it runs in the harness's JVM on 127.0.0.1; on a real link in a process of its own in
 * the link's GMS namespace at {@link MemberPlan#LINK_GMS_ADDRESS}, so that the members reach it over the bridge.
 */
final class RicochetGms {
    /** The multicast pool's base. */
    static final String POOL_BASE = "239.77.0.0";
    private static final long START_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private RicochetGms() {
    }

    /** Starts the partition for {@code plan}'s trial: in this JVM ({@code lab} null) or in the link's GMS namespace. */
    static AutoCloseable start(MemberPlan plan, NetLab lab, Path logs) throws Exception {
        boolean insecure = RicochetMember.insecure(plan.ricochetSettings());
        if (lab == null) {
            MulticastPool pool = new MulticastPool((Inet4Address) InetAddress.getByName(POOL_BASE),
                    plan.ricochetMulticastPort());
            GmsServer gms = new GmsServer(new GmsConfig(new Partitioning(0, 1),
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), plan.gmsPort()), pool,
                    GmsConfig.DEFAULT_STATS_INTERVAL_SECONDS, tls(plan, insecure)));
            gms.start();
            return gms::close;
        }
        return startProcess(plan, insecure, logs);
    }

    private static TlsSettings tls(MemberPlan plan, boolean insecure) {
        if (insecure) {
            return TlsSettings.insecure();
        }
        String dir = plan.credentials();
        return TlsSettings.from(Credentials.cert(dir, Credentials.GMS_NAME), Credentials.key(dir, Credentials.GMS_NAME),
                Credentials.ca(dir), false, "--", "--insecure")
                .requireSelf(PeerIdentity.Role.GMS, Credentials.GMS_NAME, "gms certificate");
    }

    /** The GMS process's command line (after the namespace prefix). */
    static List<String> command(MemberPlan plan, boolean insecure, Path storage) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"), GmsMain.class.getName(),
                "--partition", "0", "--partitions", "1", "--bind", plan.gmsHost(),
                "--port", Integer.toString(plan.gmsPort()), "--storage", storage.toString(),
                "--mcast-base", POOL_BASE, "--mcast-port", Integer.toString(plan.ricochetMulticastPort())));
        if (insecure) {
            command.add("--insecure");
        } else {
            String dir = plan.credentials();
            command.addAll(List.of("--tls-cert", Credentials.cert(dir, Credentials.GMS_NAME).toString(),
                    "--tls-key", Credentials.key(dir, Credentials.GMS_NAME).toString(),
                    "--tls-ca", Credentials.ca(dir).toString()));
        }
        return command;
    }

    private static AutoCloseable startProcess(MemberPlan plan, boolean insecure, Path logs) throws Exception {
        Files.createDirectories(logs);
        Path storage = Files.createTempDirectory("vsjg-gms-");
        Path log = logs.resolve("gms-" + plan.basePort() + ".log");
        List<String> command = new ArrayList<>(NetLab.inNamespace(NetLab.GMS_NS));
        command.addAll(command(plan, insecure, storage));
        Process gms = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ChildMembers.track(gms);
        AutoCloseable close = () -> {
            gms.destroy();
            if (!gms.waitFor(10, TimeUnit.SECONDS)) {
                gms.destroyForcibly();
                gms.waitFor(10, TimeUnit.SECONDS);
            }
            ChildMembers.untrack(gms);
            Directories.deleteTree(storage);
        };
        long deadline = System.nanoTime() + START_TIMEOUT_NS;
        try {
            while (!Files.readString(log, StandardCharsets.UTF_8).contains("listening")) {
                if (!gms.isAlive()) {
                    throw new IOException("the GMS exited (" + gms.exitValue() + ") before listening; see " + log);
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("the GMS did not listen within 60 s; see " + log);
                }
                Thread.sleep(100);
            }
        } catch (Exception e) {
            close.close();
            throw e;
        }
        return close;
    }
}
