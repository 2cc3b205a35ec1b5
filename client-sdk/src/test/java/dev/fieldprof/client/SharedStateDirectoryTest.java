package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.DeviceRuntime.Outcome;
import dev.fieldprof.client.ledger.PrivacyBudget;
import dev.fieldprof.client.ledger.PrivacyLedger;
import dev.fieldprof.client.state.StateLock;
import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.schemas.FrequencyReport;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Programs sharing one state directory (by default the processes and versions of one app share
 * {@code ~/.fieldprof/apps/<app>}; apps configured with one {@code state.dir} share it too) share
 * its privacy budget: however their epochs overlap, in other processes or in other threads, the
 * reports made never cost more than the budget, and no two reports of one app version carry the
 * same sequence number.
 */
class SharedStateDirectoryTest {
    private static final double PER_REPORT = Math.log(9);

    /** Room for exactly five reports of user-level ε = ln 9 per day, over all apps. */
    private static final double BUDGET = 5 * PER_REPORT;

    @TempDir Path dir;

    /** The configuration every program here runs with (also the child processes'). */
    static ClientConfig config(Path stateDir, String app) {
        return ClientConfig.builder()
                .appVersion(app)
                .deviceId("shared-device")
                .methodCount(4)
                .userLevelPrivacy("default", PER_REPORT)
                .budget(BUDGET, Duration.ofDays(1))
                .reportsPerDayCap(100)
                .checkpointInterval(null)
                // Generous: the lock is only ever held for a few file writes.
                .stateLockWait(Duration.ofMinutes(1))
                .stateDir(stateDir)
                .build();
    }

    @Test
    void overlappingProcessesOfSeveralAppsNeverSpendMoreThanTheBudget() throws Exception {
        Path state = dir.resolve("state");
        List<String> apps = List.of("a:1", "a:1", "a:1", "b:1", "b:1", "c:1");
        List<Process> children = new ArrayList<>();
        List<Path> ready = new ArrayList<>();
        Path go = dir.resolve("go");
        for (int i = 0; i < apps.size(); i++) {
            ready.add(dir.resolve("ready-" + i));
            children.add(startChild(state, apps.get(i), ready.get(i), go, 2));
        }
        // Every child has read the ledger and the budget before any reports: the overlap that
        // let each report on what it had read at its start.
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!ready.stream().allMatch(Files::exists) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(ready).allMatch(Files::exists);
        Files.writeString(go, "go", StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>();
        for (Process child : children) {
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(child.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(child.exitValue()).as(out).isZero();
            lines.addAll(out.lines().toList());
        }
        assertThat(lines.stream().filter(l -> l.startsWith("outcome ")))
                .hasSize(12)
                .filteredOn(l -> l.equals("outcome REPORTED"))
                .hasSize(5);
        assertThat(lines.stream().filter(l -> l.startsWith("outcome ")))
                .filteredOn(l -> l.equals("outcome SKIPPED_BY_BUDGET"))
                .hasSize(7);
        Map<String, List<Long>> sequences = new TreeMap<>();
        lines.stream()
                .filter(l -> l.startsWith("report "))
                .map(l -> l.split(" "))
                .forEach(
                        p ->
                                sequences
                                        .computeIfAbsent(p[1], a -> new ArrayList<>())
                                        .add(Long.parseLong(p[2])));
        assertSharedSpending(state, sequences);
    }

    /** An app whose report takes k = 10 events, with no budget or cap in the way. */
    static ClientConfig carriedConfig(Path stateDir) {
        return ClientConfig.builder()
                .appVersion("carried:1")
                .deviceId("shared-device")
                .methodCount(4)
                .privacy("default", PER_REPORT, 1, 10)
                .noBudget()
                .reportsPerDayCap(100)
                .checkpointInterval(null)
                .stateLockWait(Duration.ofMinutes(1))
                .stateDir(stateDir)
                .build();
    }

    /**
     * An epoch carried over by an earlier run (9 events, one short of k = 10) is reported by at
     * most one of the processes of the app that start while it waits: three overlapping runs add
     * one event each, and exactly one of them reports (the 9 and its own), the other two carry
     * their event on; the state file then holds those 2 events. Each process that loaded the 9 at
     * its start used to report them: three reports of the same events.
     */
    @Test
    void anEpochCarriedOverIsReportedByOneOfTheProcessesThatOverlap() throws Exception {
        Path state = dir.resolve("state");
        ClientConfig config = carriedConfig(state);
        try (CallbackReportTransport transport = new CallbackReportTransport(r -> {}, 8);
                DeviceRuntime earlier =
                        DeviceRuntime.start(
                                config, transport, new SeededRandomSource(1), Clock.systemUTC())) {
            for (int i = 0; i < 9; i++) {
                earlier.record(i % 4);
            }
            assertThat(earlier.endEpoch().outcome()).isEqualTo(Outcome.CARRIED_FORWARD);
        }
        List<Process> children = new ArrayList<>();
        List<Path> ready = new ArrayList<>();
        Path go = dir.resolve("go");
        for (int i = 0; i < 3; i++) {
            ready.add(dir.resolve("ready-" + i));
            children.add(
                    startChild(
                            CarriedEpochReporterMain.class,
                            List.of(state.toString(), ready.get(i).toString(), go.toString())));
        }
        // Every child has started (and found the carried epoch) before any ends its epoch.
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!ready.stream().allMatch(Files::exists) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(ready).allMatch(Files::exists);
        Files.writeString(go, "go", StandardCharsets.UTF_8);
        List<String> outcomes = new ArrayList<>();
        for (Process child : children) {
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(child.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(child.exitValue()).as(out).isZero();
            out.lines().filter(l -> l.startsWith("outcome ")).forEach(outcomes::add);
        }
        assertThat(outcomes)
                .containsExactlyInAnyOrder(
                        "outcome REPORTED", "outcome CARRIED_FORWARD", "outcome CARRIED_FORWARD");
        assertThat(
                        dev.fieldprof.client.state.EpochState.readFrom(
                                        DeviceRuntime.epochStateFile(config))
                                .total())
                .isEqualTo(2);
        assertThat(PrivacyLedger.readAll(state))
                .singleElement()
                .satisfies(ledger -> assertThat(ledger.reports()).isEqualTo(1));
    }

    @Test
    void threadsOfOneProgramWithRuntimesOnOneDirectoryNeverSpendMoreThanTheBudget()
            throws Exception {
        List<FrequencyReport> sent = new CopyOnWriteArrayList<>();
        List<String> apps = List.of("a:1", "a:1", "b:1", "c:1");
        CyclicBarrier together = new CyclicBarrier(apps.size());
        ExecutorService threads = Executors.newFixedThreadPool(apps.size());
        try (CallbackReportTransport transport = new CallbackReportTransport(sent::add, 64)) {
            List<DeviceRuntime> runtimes = new ArrayList<>();
            for (int i = 0; i < apps.size(); i++) {
                runtimes.add(
                        DeviceRuntime.start(
                                config(dir, apps.get(i)),
                                transport,
                                new SeededRandomSource(i),
                                Clock.systemUTC()));
            }
            List<Future<List<Outcome>>> outcomes = new ArrayList<>();
            for (DeviceRuntime runtime : runtimes) {
                outcomes.add(
                        threads.submit(
                                () -> {
                                    List<Outcome> mine = new ArrayList<>();
                                    for (int e = 0; e < 3; e++) {
                                        runtime.record(e % 4);
                                        together.await(2, TimeUnit.MINUTES);
                                        mine.add(runtime.endEpoch().outcome());
                                    }
                                    return mine;
                                }));
            }
            List<Outcome> all = new ArrayList<>();
            for (Future<List<Outcome>> f : outcomes) {
                all.addAll(f.get(2, TimeUnit.MINUTES));
            }
            runtimes.forEach(DeviceRuntime::close);
            assertThat(all).hasSize(12);
            assertThat(all).filteredOn(o -> o == Outcome.REPORTED).hasSize(5);
            assertThat(all).filteredOn(o -> o == Outcome.SKIPPED_BY_BUDGET).hasSize(7);
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
        } finally {
            threads.shutdownNow();
        }
        Map<String, List<Long>> sequences = new TreeMap<>();
        for (FrequencyReport r : sent) {
            sequences
                    .computeIfAbsent(r.getAppVersion(), a -> new ArrayList<>())
                    .add(r.getSequence());
        }
        assertSharedSpending(dir, sequences);
    }

    @Test
    void aReportThatCannotGetTheLockInTimeIsRefusedAndCountedNeverWaitedFor() throws Exception {
        List<FrequencyReport> sent = new CopyOnWriteArrayList<>();
        ClientConfig config =
                config(dir, "locked:1").toBuilder().stateLockWait(Duration.ofMillis(200)).build();
        try (CallbackReportTransport transport = new CallbackReportTransport(sent::add, 8);
                DeviceRuntime runtime =
                        DeviceRuntime.start(
                                config, transport, new SeededRandomSource(1), Clock.systemUTC())) {
            runtime.record(2);
            ExecutorService holder = Executors.newSingleThreadExecutor();
            try {
                // Another thread holds the directory's lock (as another process would).
                java.util.concurrent.CountDownLatch held =
                        new java.util.concurrent.CountDownLatch(1);
                java.util.concurrent.CountDownLatch release =
                        new java.util.concurrent.CountDownLatch(1);
                Future<?> holding =
                        holder.submit(
                                () -> {
                                    try (StateLock lock =
                                            StateLock.acquire(dir, Duration.ofSeconds(30))) {
                                        held.countDown();
                                        release.await(2, TimeUnit.MINUTES);
                                    }
                                    return null;
                                });
                assertThat(held.await(2, TimeUnit.MINUTES)).isTrue();
                assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.FAILED);
                release.countDown();
                holding.get(2, TimeUnit.MINUTES);
            } finally {
                holder.shutdownNow();
            }
            DeviceRuntime.RuntimeCounters counters = runtime.counters(false);
            assertThat(counters.stateLockTimeouts()).isEqualTo(1);
            assertThat(counters.stateWriteFailures()).isZero();
            assertThat(counters.lastStateFailure())
                    .hasValue("state directory lock held by another thread");
            assertThat(
                            ManagementFactory.getPlatformMBeanServer()
                                    .getAttribute(
                                            DeviceMetrics.name("locked:1"), "StateLockTimeouts"))
                    .isEqualTo(1L);
            assertThat(runtime.budget().spentWithin(Instant.now())).isZero();
            assertThat(runtime.openEpochEvents()).as("the event waits for the next epoch").isOne();
            // With the lock free again, the next epoch end reports, as number 1.
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
        }
        assertThat(sent).extracting(FrequencyReport::getSequence).containsExactly(1L);
    }

    @Test
    void aBudgetFileRefusedOnReReadStopsTheReportWithItsReason() throws Exception {
        List<FrequencyReport> sent = new CopyOnWriteArrayList<>();
        try (CallbackReportTransport transport = new CallbackReportTransport(sent::add, 8);
                DeviceRuntime runtime =
                        DeviceRuntime.start(
                                config(dir, "refused:1"),
                                transport,
                                new SeededRandomSource(1),
                                Clock.systemUTC())) {
            // Written after this runtime read it, as another program could have.
            Files.writeString(
                    dir.resolve("privacy-budget.properties"), "format=1\nreports=-1.0@1000\n");
            runtime.record(1);
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.FAILED);
            DeviceRuntime.RuntimeCounters counters = runtime.counters(false);
            assertThat(counters.stateWriteFailures()).isEqualTo(1);
            assertThat(counters.lastStateFailure())
                    .hasValue(
                            "privacy budget file "
                                    + dir.resolve("privacy-budget.properties")
                                    + " refused: report 1 has epsilon -1.0, not >= 0");
            assertThat(runtime.ledger().reports()).isZero();
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
        }
        assertThat(sent).isEmpty();
    }

    /**
     * Five reports in all, numbered 1, 2, ... within each app version; the budget file holds all
     * five and each ledger its app's.
     */
    private static void assertSharedSpending(Path state, Map<String, List<Long>> sequences)
            throws Exception {
        int total = 0;
        for (Map.Entry<String, List<Long>> app : sequences.entrySet()) {
            List<Long> expected = new ArrayList<>();
            for (long s = 1; s <= app.getValue().size(); s++) {
                expected.add(s);
            }
            assertThat(app.getValue())
                    .as(app.getKey())
                    .containsExactlyInAnyOrderElementsOf(expected);
            total += app.getValue().size();
        }
        assertThat(total).isEqualTo(5);
        double fiveReports = 0;
        for (int i = 0; i < 5; i++) {
            fiveReports += PER_REPORT;
        }
        assertThat(PrivacyBudget.open(state, BUDGET, Duration.ofDays(1)).spentWithin(Instant.now()))
                .isEqualTo(fiveReports);
        for (PrivacyLedger.Entry ledger : PrivacyLedger.readAll(state)) {
            assertThat(ledger.reports())
                    .as(ledger.appVersion())
                    .isEqualTo(sequences.getOrDefault(ledger.appVersion(), List.of()).size());
        }
    }

    private static Process startChild(Path state, String app, Path ready, Path go, int epochs)
            throws Exception {
        return startChild(
                SharedStateReporterMain.class,
                List.of(
                        state.toString(),
                        app,
                        ready.toString(),
                        go.toString(),
                        Integer.toString(epochs)));
    }

    private static Process startChild(Class<?> main, List<String> args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(
                System.getProperty(
                        "surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(main.getName());
        command.addAll(args);
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }
}
