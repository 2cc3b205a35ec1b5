package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.monitor.MonitorFeed;
import dev.fieldprof.monitor.MonitorHistory;
import dev.fieldprof.monitor.MonitorServer;
import dev.fieldprof.monitor.MonitorState;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RankedMethod;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.SolveStats;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The monitor rides out a broker restart: its feed follows an estimates topic, the embedded broker
 * goes down while the feed keeps polling, comes back on the same port and logs, and an estimate
 * written after the restart reaches the page's state, after the one before it and without counting
 * that one twice. The feed starts before the jobs made their model topics, as a monitor started
 * ahead of the first `analyze` does: following a topic that is not there must not hold up the
 * topics that are, outage or not.
 */
class MonitorFeedBrokerRestartITCase {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder()
                    .partitions(1)
                    .taskSlots(1)
                    .fieldprofTopics(false)
                    .build();

    @Test
    void theFeedDeliversAnEstimateWrittenAfterTheBrokerRestarted() throws Exception {
        String estimates = RUNTIME.createRandomTopic(1, false);
        MonitorFeed.TopicNames topics =
                new MonitorFeed.TopicNames(
                        estimates,
                        RUNTIME.createRandomTopic(1, false),
                        "restart-it-edge-models-" + UUID.randomUUID(),
                        "restart-it-programs-" + UUID.randomUUID());
        produce(estimates, window(10_000));

        MonitorHistory history = new MonitorHistory(30, 2, 10_000);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong polls = new AtomicLong();
        try (MonitorServer server = new MonitorServer("127.0.0.1", 0);
                MonitorFeed feed =
                        new MonitorFeed(
                                RUNTIME.clientProperties(),
                                topics,
                                Duration.ofHours(1),
                                null,
                                history,
                                server)) {
            // As `fieldprof monitor` runs it: one thread polling all along, outage included.
            Thread poller =
                    new Thread(
                            () -> {
                                while (!stop.get()) {
                                    feed.pollOnce(Duration.ofMillis(200));
                                    polls.incrementAndGet();
                                }
                            },
                            "monitor-feed");
            poller.start();
            try {
                await(
                        "the estimate written before the outage",
                        () -> windowEnds(history).size() == 1);

                RUNTIME.stopBroker();
                await(
                        "a follower of a missing topic asking the stopped broker again",
                        () -> String.valueOf(feed.errors().get(3)).startsWith("TimeoutException"));
                long before = polls.get();
                // Not a wait for a result: the feed must go on polling while it asks in vain.
                await("three polls against the stopped broker", () -> polls.get() >= before + 3);
                RUNTIME.restartBroker();
                produce(estimates, window(20_000));

                await(
                        "the estimate written after the restart",
                        () -> windowEnds(history).size() == 2);
                assertThat(windowEnds(history))
                        .as("each estimate once, in window order (feed: %s)", feed.errors())
                        .containsExactly(10_000L, 20_000L);
                List<String> missing =
                        List.of(
                                "IllegalStateException: topic "
                                        + topics.edgeModels()
                                        + " does not exist at "
                                        + RUNTIME.bootstrapServers(),
                                "IllegalStateException: topic "
                                        + topics.programs()
                                        + " does not exist at "
                                        + RUNTIME.bootstrapServers());
                // Between two asks a follower may last have met a slow answer: a real condition.
                await(
                        "the model topics named as missing, not created by the feed's asking",
                        () -> feed.errors().subList(2, 4).equals(missing));
            } finally {
                stop.set(true);
                poller.join(TIMEOUT.toMillis());
            }
        }
    }

    private static List<Long> windowEnds(MonitorHistory history) {
        List<MonitorState.Stream> streams = history.state(null).streams();
        return streams.isEmpty()
                ? List.of()
                : streams.get(0).windows().stream().map(MonitorState.Window::end).toList();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + TIMEOUT + ": " + what);
            }
            Thread.sleep(50); // polling interval of a real condition
        }
    }

    private static void produce(String topic, EstimateWindow estimate) {
        RUNTIME.produce(
                List.of(
                        new ProducerRecord<>(
                                topic,
                                estimate.getAppVersion(),
                                RecordCodec.of(EstimateWindow.class).encode(estimate))),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    /** A tumbling window of two methods ending at {@code endMillis}. */
    private static EstimateWindow window(long endMillis) {
        return EstimateWindow.newBuilder()
                .setAppVersion("restart-it:1.0")
                .setConfigId("default")
                .setWindowStartMillis(Instant.ofEpochMilli(endMillis - 10_000))
                .setWindowEndMillis(Instant.ofEpochMilli(endMillis))
                .setCumulative(false)
                .setReports(100)
                .setK(2)
                .setEpsilon(2.0)
                .setT(1)
                .setNormalized(List.of(0.6, 0.4))
                .setStandardError(0.05)
                .setConsistent(List.of(0.6, 0.4))
                .setHotThreshold(0.5)
                .setHotMethods(List.of(0))
                .setTop(
                        List.of(
                                new RankedMethod(0, "<a.A: void hot()>", 0.6, 0.6),
                                new RankedMethod(1, "<a.B: void warm()>", 0.4, 0.4)))
                .setSolve(new SolveStats(1.0, 1e-12, 1, 0.0))
                .setEmittedAtMillis(Instant.ofEpochMilli(endMillis + 500))
                .build();
    }
}
