package io.ricochet.fd;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.control.message.Watch;
import io.ricochet.control.tls.CertificateExpiry;
import io.ricochet.control.tls.TlsSettings;
import io.ricochet.control.verdict.FailureReporter;
import io.ricochet.control.verdict.WatchClient;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of one {@code ricochet-fd} process: builds the reporter, the server and (for a rack or standby detector)
 * the watch client on one event loop thread, logs the counters every {@value #STATS_INTERVAL_S} s, and on SIGTERM
 * (or SIGINT) closes the socket, the watch client, the reporter and the event loop before the JVM exits.
 */
final class FdRunner {
    private static final Logger LOG = LoggerFactory.getLogger(FdRunner.class);
    private static final long STATS_INTERVAL_S = 10;
    private static final long SHUTDOWN_WAIT_S = 5;

    private FdRunner() {
    }

    /**
     * Runs the detector until its socket closes.
     *
     * @param gms per GMS partition, in partition order, its replicas (none: verdicts are only logged)
     * @param tls the TLS of the links to the GMS partitions (or plaintext when insecure)
     * @param watchRack the rack whose daemons the GMS lists to this detector ({@link Watch#STANDBY}: it stands by
     *     for the racks of failed rack detectors), or empty: no list, only the configured targets (needs {@code gms}
     *     when present)
     * @param err where a start-up failure is reported, on one line
     * @return the exit code: 0 after a clean stop, 1 if the server could not start
     */
    static int run(FdConfig config, List<List<InetSocketAddress>> gms, TlsSettings tls, OptionalInt watchRack,
                   PrintWriter err) {
        CountDownLatch stopped = new CountDownLatch(1);
        Detector detector = new Detector(config, gms, tls);
        try {
            if (!start(detector, watchRack, err)) {
                return 1;
            }
            FdServer server = detector.server;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                LOG.info("stopping on signal");
                server.close();
                awaitQuietly(stopped);
            }, "ricochet-fd-shutdown"));
            ScheduledFuture<?> stats = detector.group.scheduleAtFixedRate(
                    () -> LOG.info("counters: {}", server.counters()), STATS_INTERVAL_S, STATS_INTERVAL_S,
                    TimeUnit.SECONDS);
            server.closeFuture().awaitUninterruptibly();
            stats.cancel(false);
            LOG.info("counters: {}", server.counters());
            return 0;
        } finally {
            detector.close();
            LOG.info("failure detector {} stopped", config.id());
            stopped.countDown();
        }
    }

    private static boolean start(Detector detector, OptionalInt watchRack, PrintWriter err) {
        InetSocketAddress bind = detector.server.config().bind();
        try {
            detector.start(watchRack);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("ricochet-fd: interrupted while binding " + Endpoints.format(bind));
        } catch (java.io.UncheckedIOException e) {
            // The metrics endpoint could not listen: its message names --metrics-port, not --bind.
            err.println("ricochet-fd: " + e.getMessage());
        } catch (Exception e) {
            // Netty rethrows the bind failure (a java.net.BindException, say) without declaring it.
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            err.println("ricochet-fd: --bind " + Endpoints.format(bind) + ": " + why);
        }
        err.flush();
        return false;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(SHUTDOWN_WAIT_S + 1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One detector's parts on one event loop thread of their own: the verdict reporter (connecting from the
     * constructor), the server, and, once {@link #start started} with a rack, the watch client, which hands every
     * list to the server ({@link FdServer#watch}, which moves it to the detector's thread).
     */
    static final class Detector implements AutoCloseable {
        final EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("ricochet-fd"));
        final FailureReporter reporter;
        final FdServer server;
        private final List<List<InetSocketAddress>> gms;
        private final TlsSettings tls;
        private WatchClient watchClient;

        Detector(FdConfig config, List<List<InetSocketAddress>> gms, TlsSettings tls) {
            this.gms = gms;
            this.tls = tls;
            this.reporter = reporter(gms, tls, group);
            this.server = new FdServer(config, reporter, group);
        }

        /**
         * Binds the server and starts pinging; then, with {@code watchRack}, asks GMS partition 0 for the daemons
         * to watch.
         *
         * @throws InterruptedException if interrupted while binding
         * @throws IllegalArgumentException if {@code watchRack} is given without GMS partitions
         */
        void start(OptionalInt watchRack) throws InterruptedException {
            if (watchRack.isPresent() && gms.isEmpty()) {
                throw new IllegalArgumentException("a watch list needs the GMS partitions");
            }
            CertificateExpiry expiry = CertificateExpiry.of(tls, "failure detector " + server.config().id()
                    + "'s TLS certificate (--tls-cert)", Clock.systemUTC());
            server.exportCertificateExpiry(expiry);
            server.start();
            if (expiry != null) {
                expiry.checkDaily(group.next());
            }
            if (watchRack.isPresent()) {
                int rack = watchRack.getAsInt();
                String id = server.config().id();
                LOG.info("failure detector {}: {}; asking GMS partition 0 for the daemons to watch", id,
                        rack == Watch.STANDBY ? "standby, watching the racks of failed rack detectors the GMS moves "
                                + "to it" : "rack " + rack + "'s detector");
                watchClient = new WatchClient(id, rack, gms, group, tls, server::watch);
            }
        }

        /** Closes the socket, the watch client, the reporter, then the event loop; waits for all of it. */
        @Override
        public void close() {
            server.close();
            if (watchClient != null) {
                watchClient.close();
            }
            GmsReporters.close(reporter);
            group.shutdownGracefully(0, SHUTDOWN_WAIT_S, TimeUnit.SECONDS).awaitUninterruptibly();
        }

        private static FailureReporter reporter(List<List<InetSocketAddress>> gms, TlsSettings tls,
                                                EventLoopGroup group) {
            if (gms.isEmpty()) {
                LOG.warn("no --gms partitions given: verdicts are only logged");
                return new LoggingFailureReporter(gms);
            }
            if (!tls.enabled()) {
                LOG.warn("links to the GMS are INSECURE (plaintext): anyone who reaches the GMS can report "
                        + "failures");
            }
            LOG.info("links to the GMS: {}", tls.describe());
            return GmsReporters.gmsReporter(gms, tls, group);
        }
    }
}
