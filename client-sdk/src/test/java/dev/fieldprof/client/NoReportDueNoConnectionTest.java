package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.DeviceRuntime.Outcome;
import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.client.transport.Reports;
import dev.fieldprof.client.transport.kafka.KafkaReportTransport;
import dev.fieldprof.client.transport.kafka.KafkaTransportSettings;
import dev.fieldprof.ldp.SeededRandomSource;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A device connects to the broker only in a run where a report can be due. The runtime decides at
 * its start, from its ledger, budget and spool: a run whose budget (or day's cap) is spent and
 * whose spool is empty never opens a connection, so the broker learns nothing of it; a run with
 * budget left, or with reports of an earlier run in its spool, connects at once (a report made at
 * exit must find the client ready). The "broker" here is a local socket that counts the connections
 * it accepts and never answers.
 */
class NoReportDueNoConnectionTest {
    private static final String APP = "quiet:1.0";

    @TempDir Path dir;
    private ServerSocket broker;
    private final AtomicInteger accepted = new AtomicInteger();
    private final List<Socket> connections = new CopyOnWriteArrayList<>();

    @BeforeEach
    void countingBroker() throws IOException {
        broker = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor =
                new Thread(
                        () -> {
                            while (!broker.isClosed()) {
                                try {
                                    connections.add(broker.accept());
                                    accepted.incrementAndGet();
                                } catch (IOException e) {
                                    return; // closed
                                }
                            }
                        },
                        "counting-broker");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterEach
    void closeBroker() throws IOException {
        broker.close();
        for (Socket s : connections) {
            s.close();
        }
    }

    /**
     * User-level ln 9 a report, a budget of one such report a day, Kafka at the counting socket.
     */
    private ClientConfig.Builder config() {
        return ClientConfig.builder()
                .appVersion(APP)
                .deviceId("quiet-device")
                .methodCount(4)
                .userLevelPrivacy("default", Math.log(9))
                .budget(Math.log(9), Duration.ofDays(1))
                .checkpointInterval(null)
                .stateDir(dir.resolve("state"))
                .transport(ClientConfig.TransportKind.KAFKA)
                .kafka("127.0.0.1:" + broker.getLocalPort(), "reports")
                .kafkaTimeout(Duration.ofSeconds(1));
    }

    /** An earlier run reports once through a transport of its own: the day's budget is spent. */
    private void spendTheBudget(ClientConfig config) throws IOException {
        try (CallbackReportTransport transport = new CallbackReportTransport(r -> {}, 8);
                DeviceRuntime earlier =
                        DeviceRuntime.start(
                                config, transport, new SeededRandomSource(1), Clock.systemUTC())) {
            earlier.record(1);
            assertThat(earlier.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
        }
    }

    @Test
    void aRunWhoseBudgetIsSpentOpensNoConnection() throws Exception {
        ClientConfig config = config().build();
        spendTheBudget(config);
        try (DeviceRuntime run = DeviceRuntime.start(config)) {
            run.record(2);
            assertThat(run.endEpoch().outcome()).isEqualTo(Outcome.SKIPPED_BY_BUDGET);
            assertThat(run.reportMayBeDueAtStart()).isFalse();
            assertThat(
                            ManagementFactory.getPlatformMBeanServer()
                                    .getAttribute(
                                            DeviceMetrics.name(APP), "StartsWithoutConnection"))
                    .isEqualTo(1L);
            // A transport that connects at start does so within moments; give it every chance.
            awaitConnections(1, Duration.ofSeconds(5));
        }
        assertThat(accepted).hasValue(0);
    }

    @Test
    void aRunWhoseDayCapIsReachedOpensNoConnection() throws Exception {
        ClientConfig config = config().noBudget().reportsPerDayCap(1).build();
        spendTheBudget(config);
        try (DeviceRuntime run = DeviceRuntime.start(config)) {
            run.record(2);
            assertThat(run.endEpoch().outcome()).isEqualTo(Outcome.SKIPPED_BY_CAP);
            awaitConnections(1, Duration.ofSeconds(5));
        }
        assertThat(accepted).hasValue(0);
    }

    @Test
    void aRunWithBudgetLeftConnectsAtItsStartBeforeAnyReport() throws Exception {
        try (DeviceRuntime run = DeviceRuntime.start(config().build())) {
            assertThat(run.reportMayBeDueAtStart()).isTrue();
            assertThat(run.startedWithoutConnection()).isFalse();
            assertThat(awaitConnections(1, Duration.ofMinutes(1))).isTrue();
            assertThat(run.counters(false).reportsMade()).isZero();
        }
    }

    @Test
    void aRunWhoseBudgetIsSpentButWhoseSpoolHoldsAReportConnectsAtItsStart() throws Exception {
        ClientConfig config = config().build();
        spendTheBudget(config);
        // A report an earlier run could not deliver waits in the device's spool.
        try (KafkaReportTransport offline =
                new KafkaReportTransport(
                        KafkaTransportSettings.builder("127.0.0.1:1", config.spoolDir())
                                .topic("reports")
                                .timeout(Duration.ofMillis(200))
                                .spoolMaxBytes(1 << 20)
                                .queueCapacity(8)
                                .build())) {
            offline.submit(Reports.report(1, 4));
            assertThat(offline.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(offline.spooled()).isEqualTo(1);
        }
        try (DeviceRuntime run = DeviceRuntime.start(config)) {
            assertThat(run.reportMayBeDueAtStart()).isFalse();
            assertThat(run.transport().connectsAtStart()).isTrue();
            assertThat(run.startedWithoutConnection()).isFalse();
            assertThat(awaitConnections(1, Duration.ofMinutes(1))).isTrue();
        }
    }

    /** Waits until the socket accepted {@code n} connections or the time is up. */
    private boolean awaitConnections(int n, Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (accepted.get() < n && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
        return accepted.get() >= n;
    }
}
