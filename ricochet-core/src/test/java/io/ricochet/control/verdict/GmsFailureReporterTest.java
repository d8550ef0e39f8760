package io.ricochet.control.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.api.Await;
import io.ricochet.control.link.FakeReplica;
import io.ricochet.control.link.LinkFixture;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.DetectorRecovered;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import io.ricochet.control.message.Redirect;
import io.ricochet.control.message.Serving;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link GmsFailureReporter} against fake replicas of one partition: a leader that reads verdicts and dies before
 * acting on them does not lose them (the next leader hears them again), and only the latest verdict of each subject
 * is sent.
 */
class GmsFailureReporterTest {
    @RegisterExtension
    final LinkFixture fixture = new LinkFixture("test-reporter");


    @Test
    void shouldWriteVerdictsAgainToTheNextLeaderWhenOneDiesWithoutActing() {
        FakeReplica first = fixture.replica(FakeReplica.leader());
        FakeReplica next = fixture.replica(FakeReplica.leader());
        FakeReplica follower = fixture.replica(FakeReplica.follower(next));
        GmsFailureReporter reporter = reporter(first, follower);

        reporter.failed(1);
        reporter.detectorFailed("rack-1");
        List<ControlMessage> both = List.of(new NodeFailed(1), new DetectorFailed("rack-1"));
        Await.until(() -> "the first leader read both: " + first.received, () -> first.received.equals(both));
        first.close();

        Await.until(() -> "the next leader (through the follower) read both: " + next.received,
                () -> next.received.equals(both));
        assertEquals(List.of(), follower.received);
        assertEquals(0, reporter.dropped());
    }

    @Test
    void shouldSendOnlyTheLatestVerdictOfEachSubject() {
        FakeReplica replica = fixture.replica(new FakeReplica(Redirect::unknown));
        GmsFailureReporter reporter = reporter(replica);
        Await.until("a first session (no leader yet)", () -> replica.accepted() >= 1);

        reporter.failed(1);
        reporter.failed(2);
        reporter.recovered(1);
        reporter.detectorFailed("rack-1");
        reporter.detectorRecovered("rack-1");
        replica.greetWith(() -> new Serving(0, 1, 2));

        List<ControlMessage> latest = List.of(new NodeFailed(2), new NodeRecovered(1),
                new DetectorRecovered("rack-1"));
        Await.until(() -> "the latest of each: " + replica.received, () -> replica.received.size() >= 3);
        assertEquals(latest, replica.received);
        reporter.failed(2);
        reporter.failed(3);
        Await.until(() -> "NODE_FAILED 3: " + replica.received, () -> replica.received.size() >= 4);
        assertEquals(new NodeFailed(3), replica.received.get(3), "a repeat is not written twice on one session");
    }

    @Test
    void shouldNotWriteAForgottenNodesVerdictToTheNextLeaderOfAnyPartition() {
        FakeReplica firstOf0 = fixture.replica(new FakeReplica(() -> new Serving(0, 2, 1)));
        FakeReplica nextOf0 = fixture.replica(new FakeReplica(() -> new Serving(0, 2, 2)));
        FakeReplica firstOf1 = fixture.replica(new FakeReplica(() -> new Serving(1, 2, 1)));
        FakeReplica nextOf1 = fixture.replica(new FakeReplica(() -> new Serving(1, 2, 2)));
        GmsFailureReporter reporter = new GmsFailureReporter(List.of(
                List.of(firstOf0.address(), nextOf0.address()), List.of(firstOf1.address(), nextOf1.address())),
                fixture.group);
        fixture.client(reporter);
        FakeReplica[] firsts = {firstOf0, firstOf1};
        FakeReplica[] nexts = {nextOf0, nextOf1};
        Await.until("both first leaders in session", () -> firstOf0.accepted() >= 1 && firstOf1.accepted() >= 1);

        reporter.failed(1);
        reporter.failed(2);
        reporter.detectorFailed("1");
        List<ControlMessage> all = List.of(new NodeFailed(1), new NodeFailed(2), new DetectorFailed("1"));
        for (FakeReplica first : firsts) {
            Await.until(() -> "a first leader read all three: " + first.received, () -> first.received.equals(all));
        }
        // Node 1's rack moved to another detector: this one's NODE_FAILED 1 must not come back after a failover.
        reporter.forget(1);
        reporter.forget(5);
        reporter.failed(3);
        for (FakeReplica first : firsts) {
            Await.until(() -> "NODE_FAILED 3 after the forget: " + first.received, () -> first.received.size() == 4);
            first.close();
        }

        List<ControlMessage> kept = List.of(new NodeFailed(2), new DetectorFailed("1"), new NodeFailed(3));
        for (FakeReplica next : nexts) {
            Await.until(() -> "the next leader read what was not forgotten: " + next.received,
                    () -> next.received.size() >= kept.size());
            assertEquals(kept, next.received);
        }
        reporter.recovered(1);
        for (FakeReplica next : nexts) {
            Await.until(() -> "a new verdict of node 1 is sent: " + next.received,
                    () -> next.received.contains(new NodeRecovered(1)));
        }
        assertEquals(0, reporter.dropped());
    }

    private GmsFailureReporter reporter(FakeReplica... replicas) {
        GmsFailureReporter reporter = new GmsFailureReporter(
                List.of(List.of(replicas).stream().map(FakeReplica::address).toList()), fixture.group);
        fixture.client(reporter);
        return reporter;
    }

}
