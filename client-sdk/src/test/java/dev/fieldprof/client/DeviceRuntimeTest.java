package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.fieldprof.client.DeviceRuntime.EpochResult;
import dev.fieldprof.client.DeviceRuntime.Outcome;
import dev.fieldprof.client.ledger.PrivacyLedger;
import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.schemas.FrequencyReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceRuntimeTest {
    private static final long SEED = 4242L;
    @TempDir Path dir;
    private final List<FrequencyReport> reports = new CopyOnWriteArrayList<>();
    private final CallbackReportTransport transport = new CallbackReportTransport(reports::add, 64);

    @AfterEach
    void tearDown() {
        transport.close();
    }

    private ClientConfig.Builder config() {
        return ClientConfig.builder()
                .appVersion("demo:1.0")
                .deviceId("device-7")
                .methodCount(6)
                .privacy("default", Math.log(9), 1, 10)
                // Reports of 10 ln 9 each, many a day: no budget, by name (the budget's own
                // test sets one).
                .noBudget()
                .checkpointInterval(null)
                .stateDir(dir);
    }

    private DeviceRuntime start(ClientConfig config, Clock clock) throws Exception {
        return DeviceRuntime.start(config, transport, new SeededRandomSource(SEED), clock);
    }

    @Test
    void carriesShortEpochsAcrossRestartsAndNeverSendsThemEarly() throws Exception {
        try (DeviceRuntime runtime = start(config().build(), Clock.systemUTC())) {
            for (int i = 0; i < 6; i++) {
                runtime.record(i % 3);
            }
            EpochResult result = runtime.endEpoch();
            assertThat(result.outcome()).isEqualTo(Outcome.CARRIED_FORWARD);
            assertThat(runtime.openEpochEvents()).isEqualTo(6);
        }
        assertThat(transport.flush(Duration.ofSeconds(5))).isTrue();
        assertThat(reports).isEmpty();
        // A new process: the 6 events are still there, 4 more complete the epoch.
        try (DeviceRuntime runtime = start(config().build(), Clock.systemUTC())) {
            assertThat(runtime.openEpochEvents()).isEqualTo(6);
            for (int i = 0; i < 3; i++) {
                runtime.record(5);
            }
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.CARRIED_FORWARD);
            runtime.record(4);
            EpochResult result = runtime.endEpoch();
            assertThat(result.outcome()).isEqualTo(Outcome.REPORTED);
            assertThat(runtime.openEpochEvents()).isZero();
        }
        assertThat(transport.flush(Duration.ofSeconds(5))).isTrue();
        assertThat(reports).hasSize(1);
        FrequencyReport report = reports.get(0);
        assertThat(report.getDeviceId()).isEqualTo("device-7");
        assertThat(report.getAppVersion()).isEqualTo("demo:1.0");
        assertThat(report.getConfigId()).isEqualTo("default");
        assertThat(report.getK()).isEqualTo(10);
        assertThat(report.getCounts()).hasSize(6).allSatisfy(z -> assertThat(z).isBetween(0, 10));
    }

    /**
     * A report says only the UTC day it was made on, not the moment: 17:23:45.678 becomes 00:00 of
     * the same day, so the collector cannot time the runs of the program by it.
     */
    @Test
    void writesTheStartOfTheUtcDayAsTheReportsCreationTime() throws Exception {
        Clock late = Clock.fixed(Instant.parse("2026-03-01T17:23:45.678Z"), ZoneOffset.UTC);
        try (DeviceRuntime runtime = start(config().build(), late)) {
            for (int i = 0; i < 10; i++) {
                runtime.record(i % 6);
            }
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
        }
        assertThat(transport.flush(Duration.ofSeconds(5))).isTrue();
        assertThat(reports)
                .singleElement()
                .satisfies(
                        r ->
                                assertThat(r.getCreatedAtMillis().toEpochMilli())
                                        .isEqualTo(1_772_323_200_000L));
        assertThat(Instant.ofEpochMilli(1_772_323_200_000L))
                .isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
    }

    /**
     * Reports are numbered per device and app version from the ledger, across restarts, so the job
     * can count each once after any outage; a report the ledger cannot record never leaves (the
     * ledger fails closed).
     */
    @Test
    void numbersReportsAcrossRestartsAndSendsNoneTheLedgerCannotRecord() throws Exception {
        try (DeviceRuntime runtime = start(config().build(), Clock.systemUTC())) {
            for (int epoch = 0; epoch < 2; epoch++) {
                for (int i = 0; i < 10; i++) {
                    runtime.record(i % 6);
                }
                assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
            }
        }
        try (DeviceRuntime runtime = start(config().build(), Clock.systemUTC())) {
            for (int i = 0; i < 10; i++) {
                runtime.record(i % 6);
            }
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
            // The ledger can no longer be written: a non-empty directory takes its place.
            Path ledger;
            try (var files = Files.list(dir)) {
                ledger =
                        files.filter(f -> f.getFileName().toString().startsWith("ledger-"))
                                .findFirst()
                                .orElseThrow();
            }
            Files.delete(ledger);
            Files.createDirectories(ledger.resolve("blocker"));
            for (int i = 0; i < 10; i++) {
                runtime.record(i % 6);
            }
            EpochResult refused = runtime.endEpoch();
            assertThat(refused.outcome()).isEqualTo(Outcome.FAILED);
            assertThat(runtime.openEpochEvents())
                    .as("the events wait for a later report")
                    .isEqualTo(10);
        }
        assertThat(transport.flush(Duration.ofSeconds(5))).isTrue();
        assertThat(reports).extracting(FrequencyReport::getSequence).containsExactly(1L, 2L, 3L);
    }

    @Test
    void discardsStateOfAnotherConfiguration() throws Exception {
        try (DeviceRuntime runtime = start(config().build(), Clock.systemUTC())) {
            runtime.record(1);
            runtime.endEpoch();
        }
        try (DeviceRuntime runtime =
                start(config().privacy("other", 1.0, 1, 10).build(), Clock.systemUTC())) {
            DeviceRuntime.RuntimeCounters counters = runtime.counters(false);
            assertThat(runtime.openEpochEvents()).isZero();
            assertThat(counters.stateDiscarded())
                    .hasValueSatisfying(s -> assertThat(s).contains("configuration changed"));
        }
    }

    @Test
    void detectsACorruptStateFile() throws Exception {
        try (DeviceRuntime runtime = start(config().build(), Clock.systemUTC())) {
            runtime.record(1);
            runtime.endEpoch();
        }
        Path state = dir.resolve(DeviceRuntime.stateFileName("demo:1.0"));
        byte[] bytes = Files.readAllBytes(state);
        bytes[bytes.length - 9] ^= 1;
        Files.write(state, bytes);
        try (DeviceRuntime runtime = start(config().build(), Clock.systemUTC())) {
            assertThat(runtime.counters(false).stateDiscarded())
                    .hasValueSatisfying(s -> assertThat(s).contains("checksum"));
        }
    }

    @Test
    void samplesExactlyKFromALargeEpochAndKeepsTheLedger() throws Exception {
        try (DeviceRuntime runtime = start(config().build(), Clock.systemUTC())) {
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 1000; i++) {
                    runtime.record(i % 6);
                }
                assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
            }
            PrivacyLedger.Entry ledger = runtime.ledger();
            assertThat(ledger.reports()).isEqualTo(3);
            assertThat(ledger.eventsReported()).isEqualTo(30);
            // user-level bound = epsilon * events reported / t
            assertThat(ledger.userLevelEpsilon()).isCloseTo(30 * Math.log(9), within(1e-9));
            assertThat(ledger.epsilonPerTEvents()).isEqualTo(Math.log(9));
        }
        assertThat(PrivacyLedger.readAll(dir))
                .singleElement()
                .satisfies(e -> assertThat(e.reports()).isEqualTo(3));
    }

    @Test
    void userLevelModeReportsOneOmegaSubsetPerEpochAtEpsilonInTheLedgerAndBudget()
            throws Exception {
        double epsilon = Math.log(3);
        ClientConfig config =
                config().userLevelPrivacy("user", epsilon)
                        .budget(2.5 * epsilon, Duration.ofDays(1))
                        .build();
        int omega = new dev.fieldprof.ldp.SubsetSelection(6, epsilon).subsetSize();
        try (DeviceRuntime runtime = start(config, Clock.systemUTC())) {
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 1000; i++) {
                    runtime.record(i % 6);
                }
                assertThat(runtime.endEpoch().outcome())
                        .isEqualTo(round < 2 ? Outcome.REPORTED : Outcome.SKIPPED_BY_BUDGET);
            }
            PrivacyLedger.Entry ledger = runtime.ledger();
            assertThat(ledger.reports()).isEqualTo(2);
            assertThat(ledger.eventsReported()).isEqualTo(2);
            assertThat(ledger.userLevelEpsilon()).isCloseTo(2 * epsilon, within(1e-12));
            assertThat(ledger.epochsSkippedByBudget()).isEqualTo(1);
        }
        // Delivered on the transport's thread, which the runtime does not own.
        assertThat(transport.flush(Duration.ofSeconds(5))).isTrue();
        assertThat(reports).hasSize(2);
        for (FrequencyReport report : reports) {
            assertThat(report.getK()).isEqualTo(1);
            assertThat(report.getConfigId()).isEqualTo("user");
            assertThat(report.getCounts()).isEmpty();
            assertThat(report.getSubset()).hasSize(omega).isSorted().doesNotHaveDuplicates();
            assertThat(report.getSubset()).allSatisfy(v -> assertThat(v).isBetween(0, 5));
        }
    }

    @Test
    void userLevelModeRejectsAnotherTraceLength() {
        java.util.Properties properties = new java.util.Properties();
        properties.setProperty(ClientConfig.KEY_MODE, "user-level");
        properties.setProperty(ClientConfig.KEY_K, "10");
        assertThatThrownBy(() -> config().properties(properties).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be 1 when privacy.mode=user-level");
    }

    @Test
    void stopsReportingAtTheDailyCap() throws Exception {
        Instant noon = Instant.parse("2026-11-22T12:00:00Z");
        Clock clock = Clock.fixed(noon, ZoneOffset.UTC);
        try (DeviceRuntime runtime = start(config().reportsPerDayCap(2).build(), clock)) {
            Outcome[] outcomes = new Outcome[3];
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 20; i++) {
                    runtime.record(i % 6);
                }
                outcomes[round] = runtime.endEpoch().outcome();
            }
            assertThat(outcomes)
                    .containsExactly(Outcome.REPORTED, Outcome.REPORTED, Outcome.SKIPPED_BY_CAP);
            assertThat(runtime.ledger().reportsOnDay()).isEqualTo(2);
            assertThat(runtime.ledger().epochsSkippedByCap()).isEqualTo(1);
        }
        // The next UTC day the cap resets.
        Clock tomorrow = Clock.fixed(noon.plus(Duration.ofDays(1)), ZoneOffset.UTC);
        try (DeviceRuntime runtime = start(config().reportsPerDayCap(2).build(), tomorrow)) {
            for (int i = 0; i < 20; i++) {
                runtime.record(i % 6);
            }
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
            assertThat(runtime.ledger().reports()).isEqualTo(3);
        }
    }

    @Test
    void settingTheClockBackNeverFreesTheDailyCapAndTheCapHoldsAcrossRestarts() throws Exception {
        Instant noon = Instant.parse("2026-11-22T12:00:00Z");
        try (DeviceRuntime runtime =
                start(config().reportsPerDayCap(2).build(), Clock.fixed(noon, ZoneOffset.UTC))) {
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 10; i++) {
                    runtime.record(i % 6);
                }
                assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
            }
        }
        // Same day, new process: the cap holds.
        Clock evening = Clock.fixed(noon.plus(Duration.ofHours(6)), ZoneOffset.UTC);
        try (DeviceRuntime runtime = start(config().reportsPerDayCap(2).build(), evening)) {
            for (int i = 0; i < 10; i++) {
                runtime.record(i % 6);
            }
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.SKIPPED_BY_CAP);
        }
        // The clock set back a day: still the 22nd's cap, not a fresh day.
        Clock yesterday = Clock.fixed(noon.minus(Duration.ofDays(1)), ZoneOffset.UTC);
        try (DeviceRuntime runtime = start(config().reportsPerDayCap(2).build(), yesterday)) {
            for (int i = 0; i < 10; i++) {
                runtime.record(i % 6);
            }
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.SKIPPED_BY_CAP);
            assertThat(runtime.ledger().reports()).isEqualTo(2);
            assertThat(runtime.ledger().reportsOnDay()).isEqualTo(2);
        }
    }

    @Test
    void aTimeBasedEpochSpansRestartsFromItsPersistedStart() throws Exception {
        Instant start = Instant.parse("2026-11-22T12:00:00Z");
        ClientConfig hourly = config().epochSpan(Duration.ofHours(1)).build();
        try (DeviceRuntime runtime = start(hourly, Clock.fixed(start, ZoneOffset.UTC))) {
            for (int i = 0; i < 10; i++) {
                runtime.record(i % 6);
            }
            assertThat(runtime.firstEpochEndDelayMillis(Duration.ofHours(1))).isEqualTo(3_600_000L);
        }
        Clock later = Clock.fixed(start.plus(Duration.ofMinutes(59)), ZoneOffset.UTC);
        try (DeviceRuntime runtime = start(hourly, later)) {
            assertThat(runtime.firstEpochEndDelayMillis(Duration.ofHours(1))).isEqualTo(60_000L);
        }
        // Started again two hours in: the epoch that began in the first run is over at once.
        CountDownLatch reported = new CountDownLatch(1);
        Clock twoHours = Clock.fixed(start.plus(Duration.ofHours(2)), ZoneOffset.UTC);
        try (CallbackReportTransport signalling =
                        new CallbackReportTransport(r -> reported.countDown(), 4);
                DeviceRuntime runtime =
                        DeviceRuntime.start(
                                hourly, signalling, new SeededRandomSource(SEED), twoHours)) {
            // Its end is scheduled with no delay, so it may already have run and started the next
            // epoch (whose delay is a whole span) before this thread could ask for the delay: the
            // report arriving within seconds, not the hour a later end would take, is the check.
            assertThat(reported.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(runtime.ledger().reports()).isEqualTo(1);
        }
    }

    @Test
    void stateFilesAreReadableByTheDevicesUserOnly() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                java.nio.file.FileSystems.getDefault()
                        .supportedFileAttributeViews()
                        .contains("posix"),
                "POSIX permissions");
        Path state = dir.resolve("app-data/fieldprof");
        try (DeviceRuntime runtime = start(config().stateDir(state).build(), Clock.systemUTC())) {
            for (int i = 0; i < 13; i++) {
                runtime.record(i % 6);
            }
            runtime.endEpoch(); // a report: the ledger and the epoch state are written
            for (int i = 0; i < 3; i++) {
                runtime.record(i);
            }
        }
        List<String> seen = new java.util.ArrayList<>();
        try (var files = java.nio.file.Files.walk(dir.resolve("app-data"))) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String perms =
                        java.nio.file.attribute.PosixFilePermissions.toString(
                                java.nio.file.Files.getPosixFilePermissions(p));
                seen.add(dir.relativize(p) + " " + perms);
            }
        }
        assertThat(seen)
                .containsExactlyInAnyOrder(
                        "app-data rwx------",
                        "app-data/fieldprof rwx------",
                        "app-data/fieldprof/epoch-demo_1.0-33026f9c.state rw-------",
                        "app-data/fieldprof/ledger-demo_1.0-33026f9c.properties rw-------",
                        "app-data/fieldprof/privacy-budget.properties rw-------",
                        "app-data/fieldprof/state.lock rw-------");
    }

    @Test
    void refusesReportsBeyondTheDevicesBudgetOverAllItsAppVersions() throws Exception {
        // ln 9 per event, k = 10, t = 1: each report costs 10 ln 9 = 21.97 of user-level epsilon.
        double perReport = 10 * Math.log(9);
        Clock noon = Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC);
        ClientConfig v1 = config().budget(2.5 * perReport, Duration.ofDays(1)).build();
        ClientConfig v2 =
                config().appVersion("demo:2.0").budget(2.5 * perReport, Duration.ofDays(1)).build();
        try (DeviceRuntime runtime = start(v1, noon)) {
            for (int i = 0; i < 10; i++) {
                runtime.record(i % 6);
            }
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
        }
        try (DeviceRuntime runtime = start(v2, noon)) {
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 10; i++) {
                    runtime.record(i % 6);
                }
            }
            // Two app versions, one device: the second report fits, a third would not.
        }
        try (DeviceRuntime runtime = start(v2, noon)) {
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
            for (int i = 0; i < 10; i++) {
                runtime.record(i % 6);
            }
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.SKIPPED_BY_BUDGET);
            assertThat(runtime.ledger().epochsSkippedByBudget()).isEqualTo(1);
            assertThat(runtime.budget().spentWithin(noon.instant()))
                    .isCloseTo(2 * perReport, org.assertj.core.api.Assertions.within(1e-9));
        }
        assertThat(transport.flush(Duration.ofSeconds(5))).isTrue();
        assertThat(reports).hasSize(2);
    }

    @Test
    void exposesItsCountersThroughJmxAndNoEventCount() throws Exception {
        javax.management.MBeanServer server =
                java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName name = DeviceMetrics.name("demo:1.0");
        try (DeviceRuntime runtime = start(config().build(), Clock.systemUTC())) {
            for (int i = 0; i < 10; i++) {
                runtime.record(i % 6);
            }
            runtime.endEpoch();
            assertThat(server.getAttribute(name, "ReportsMade")).isEqualTo(1L);
            assertThat(server.getAttribute(name, "EpochsCarried")).isEqualTo(0L);
            assertThat(server.getAttribute(name, "PathTracing")).isEqualTo(false);
            assertThat(server.getAttribute(name, "PathProbeInlining"))
                    .isEqualTo(ProbeInlining.outcome());
            assertThat(
                            java.util.Arrays.stream(server.getMBeanInfo(name).getAttributes())
                                    .map(javax.management.MBeanAttributeInfo::getName))
                    .containsExactlyInAnyOrder(
                            "ReportsMade",
                            "EpochsCarried",
                            "EpochsSkippedByCap",
                            "EpochsSkippedByBudget",
                            "StateWriteFailures",
                            "StateLockTimeouts",
                            "EpochFailures",
                            "BackgroundFailures",
                            "UserLevelEpsilonInBudgetPeriod",
                            "StartsWithoutConnection",
                            "ReportsSent",
                            "ReportsSpooled",
                            "ReportsDropped",
                            "ReportsUnsealable",
                            "KafkaAuthenticationFailures",
                            "PathTracing",
                            "PathReportsSent",
                            "PathReportsSpooled",
                            "PathReportsDropped",
                            "PathReportsQueueFull",
                            "PathReportsSpoolFull",
                            "PathSegmentsDropped",
                            "PathBufferBytes",
                            "PathProbeInlining",
                            "ClassesInstrumentedAtLoad",
                            "ClassesLeftUninstrumentedAtLoad");
            assertThat(server.getAttribute(name, "ClassesInstrumentedAtLoad")).isEqualTo(0L);
        }
        assertThat(server.isRegistered(name)).as("unregistered at close").isFalse();
    }

    @Test
    void createsAndKeepsADeviceIdInTheStateDirectory() throws Exception {
        String first;
        try (DeviceRuntime runtime = start(config().deviceId(null).build(), Clock.systemUTC())) {
            first = runtime.deviceId();
        }
        try (DeviceRuntime runtime = start(config().deviceId(null).build(), Clock.systemUTC())) {
            assertThat(runtime.deviceId()).isEqualTo(first).hasSize(36);
        }
    }

    @Test
    void endsTimeBasedEpochsOnTheSchedulerThread() throws Exception {
        CountDownLatch reported = new CountDownLatch(1);
        try (CallbackReportTransport signalling =
                        new CallbackReportTransport(r -> reported.countDown(), 4);
                DeviceRuntime runtime =
                        DeviceRuntime.start(
                                config().epochSpan(Duration.ofSeconds(1)).build(),
                                signalling,
                                new SeededRandomSource(SEED),
                                Clock.systemUTC())) {
            for (int i = 0; i < 10; i++) {
                runtime.record(0);
            }
            assertThat(reported.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(runtime.ledger().reports()).isEqualTo(1);
        }
    }

    @Test
    void theEpochThreadOutlivesFailingEpochEndsCountsThemAndPrintsNothing() throws Exception {
        java.io.PrintStream hostErr = System.err;
        java.io.PrintStream hostOut = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        java.io.PrintStream watching =
                new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8);
        try (DeviceRuntime runtime =
                start(config().epochSpan(Duration.ofSeconds(1)).build(), Clock.systemUTC())) {
            // The ledger cannot be written: every epoch end on the scheduler thread fails.
            Path ledger;
            try (var files = Files.list(dir)) {
                ledger =
                        files.filter(f -> f.getFileName().toString().startsWith("ledger-"))
                                .findFirst()
                                .orElseThrow();
            }
            Files.delete(ledger);
            Files.createDirectories(ledger.resolve("blocker"));
            System.setErr(watching);
            System.setOut(watching);
            for (int i = 0; i < 10; i++) {
                runtime.record(i % 6);
            }
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (runtime.counters(false).stateWriteFailures() < 2
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            // Two failed epoch ends: the thread ran again after the first.
            assertThat(runtime.counters(false).stateWriteFailures()).isGreaterThanOrEqualTo(2);
            assertThat(runtime.backgroundFailures()).isZero(); // each failure was handled inside
            assertThat(
                            Thread.getAllStackTraces().keySet().stream()
                                    .filter(t -> t.getName().equals("fieldprof-epochs"))
                                    .filter(Thread::isAlive))
                    .hasSize(1);
        } finally {
            System.setErr(hostErr);
            System.setOut(hostOut);
        }
        assertThat(reports).isEmpty();
        assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void closingPersistsTheOpenEpochWithoutSendingIt() throws Exception {
        try (DeviceRuntime runtime = start(config().build(), Clock.systemUTC())) {
            for (int i = 0; i < 50; i++) {
                runtime.record(2);
            }
        }
        try (DeviceRuntime runtime = start(config().build(), Clock.systemUTC())) {
            assertThat(runtime.openEpochEvents()).isEqualTo(50);
            assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
        }
    }
}
