package io.ricochet.fd;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.control.FailureReporter;
import io.ricochet.control.tls.TlsSettings;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of one {@code ricochet-fd} process: builds the reporter and the server on one event loop thread, logs
 * the counters every {@value #STATS_INTERVAL_S} s, and on SIGTERM (or SIGINT) closes the socket, the reporter and
 * the event loop before the JVM exits.
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
     * @param err where a start-up failure is reported, on one line
     * @return the exit code: 0 after a clean stop, 1 if the server could not start
     */
    static int run(FdConfig config, List<List<InetSocketAddress>> gms, TlsSettings tls, PrintWriter err) {
        EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("ricochet-fd"));
        FailureReporter reporter = reporter(gms, tls, group);
        FdServer server = new FdServer(config, reporter, group);
        CountDownLatch stopped = new CountDownLatch(1);
        try {
            if (!start(server, config, err)) {
                return 1;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                LOG.info("stopping on signal");
                server.close();
                awaitQuietly(stopped);
            }, "ricochet-fd-shutdown"));
            ScheduledFuture<?> stats = group.scheduleAtFixedRate(
                    () -> LOG.info("counters: {}", server.counters()), STATS_INTERVAL_S, STATS_INTERVAL_S,
                    TimeUnit.SECONDS);
            server.closeFuture().awaitUninterruptibly();
            stats.cancel(false);
            LOG.info("counters: {}", server.counters());
            return 0;
        } finally {
            server.close();
            GmsReporters.close(reporter);
            group.shutdownGracefully(0, SHUTDOWN_WAIT_S, TimeUnit.SECONDS).awaitUninterruptibly();
            LOG.info("failure detector {} stopped", config.id());
            stopped.countDown();
        }
    }

    private static FailureReporter reporter(List<List<InetSocketAddress>> gms, TlsSettings tls,
                                            EventLoopGroup group) {
        if (gms.isEmpty()) {
            LOG.warn("no --gms partitions given: verdicts are only logged");
            return new LoggingFailureReporter(gms);
        }
        if (!tls.enabled()) {
            LOG.warn("links to the GMS are INSECURE (plaintext): anyone who reaches the GMS can report failures");
        }
        LOG.info("links to the GMS: {}", tls.describe());
        return GmsReporters.gmsReporter(gms, tls, group);
    }

    private static boolean start(FdServer server, FdConfig config, PrintWriter err) {
        try {
            server.start();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("ricochet-fd: interrupted while binding " + Endpoints.format(config.bind()));
        } catch (Exception e) {
            // Netty rethrows the bind failure (a java.net.BindException, say) without declaring it.
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            err.println("ricochet-fd: --bind " + Endpoints.format(config.bind()) + ": " + why);
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
}
