package io.ricochet.fd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hierarchy on loopback: a rack detector pinging a fake daemon, and a top-level detector watching it
 * ({@code --watch-detectors rack-a@...}) and the next top-level detector of its chain ({@code --chain-next
 * top-2@...}). The rack detector is stopped, then started again on the same address.
 */
class TopLevelChainTest {
    private final EventLoopGroup group = new NioEventLoopGroup(1);
    private final RecordingReporter rackReporter = new RecordingReporter();
    private final RecordingReporter topReporter = new RecordingReporter();
    private final RecordingReporter nextReporter = new RecordingReporter();

    @AfterEach
    void tearDown() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private FdServer start(String id, InetSocketAddress bind, List<Target> targets, RecordingReporter reporter)
            throws InterruptedException {
        FdConfig config = new FdConfig(id, bind, targets, FdServerTest.INTERVAL_NS, FdServerTest.MISS);
        return new FdServer(config, reporter, group).start();
    }

    @Test
    void shouldReportAStoppedRackDetectorAndItsReturn() throws Exception {
        try (FakeDaemon daemon = new FakeDaemon(1);
             FdServer rack = start("rack-a", FdServerTest.ANY_LOOPBACK_PORT, List.of(daemon.target()), rackReporter);
             FdServer next = start("top-2", FdServerTest.ANY_LOOPBACK_PORT, List.of(), nextReporter);
             FdServer top = start("top-1", FdServerTest.ANY_LOOPBACK_PORT,
                     List.of(Target.detector("rack-a", rack.localAddress()),
                             Target.detector("top-2", next.localAddress())), topReporter)) {
            InetSocketAddress rackAddress = rack.localAddress();
            FdCounters counters = top.counters();
            Await.until("top-1 heard from rack-a and top-2 for a few rounds",
                    () -> counters.get(FdCounter.ACKS_ACCEPTED) >= 2 * 5, counters::toString);

            rack.close();
            Await.until("detectorFailed rack-a", () -> topReporter.has("detectorFailed rack-a"), counters::toString);

            try (FdServer rackAgain = start("rack-a", rackAddress, List.of(daemon.target()), rackReporter)) {
                Await.until("detectorRecovered rack-a", () -> topReporter.has("detectorRecovered rack-a"),
                        counters::toString);
                assertEquals(List.of("detectorFailed rack-a", "detectorRecovered rack-a"), topReporter.events(),
                        "nothing about top-2, which kept answering");
                assertEquals(List.of(), rackReporter.events(), "the daemon never stopped answering");
                assertEquals(List.of(), nextReporter.events());
                assertEquals(0, rackAgain.counters().get(FdCounter.MALFORMED));
                assertEquals(0, counters.get(FdCounter.MALFORMED));
            }
        }
    }
}
