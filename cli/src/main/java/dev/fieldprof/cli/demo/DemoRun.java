package dev.fieldprof.cli.demo;

import dev.fieldprof.cli.programs.ProgramPublisher;
import dev.fieldprof.client.transport.ReportTransport;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.client.transport.kafka.KafkaReportTransport;
import dev.fieldprof.client.transport.kafka.KafkaTransportSettings;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.monitor.DeadLetterTally;
import dev.fieldprof.monitor.EstimateBoard;
import dev.fieldprof.monitor.EstimatesTail;
import dev.fieldprof.monitor.FlinkJobHealth;
import dev.fieldprof.monitor.MonitorFeed;
import dev.fieldprof.monitor.MonitorHistory;
import dev.fieldprof.monitor.MonitorServer;
import dev.fieldprof.monitor.TerminalView;
import dev.fieldprof.runtime.EmbeddedRuntime;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.Topics;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * One demo run: prepares the sample program, starts the embedded runtime and the estimation job,
 * runs the simulated devices, and shows the estimates until the duration ends or the JVM is asked
 * to stop.
 */
final class DemoRun {
    private final DemoSettings settings;
    private final PrintStream out;
    private final AtomicBoolean stopped = new AtomicBoolean();

    DemoRun(DemoSettings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    void run() throws Exception {
        Thread hook = new Thread(() -> stopped.set(true), "fieldprof-demo-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println("fieldprof demo: preparing the sample program ...");
        DemoProgram program = DemoProgram.prepare(settings.programJar(), settings.workDir());
        // Before anything starts: a mode, epsilon or budget no device could report under fails.
        ProgramModel model = settings.privacy().applyTo(program.model());
        out.printf(
                Locale.ROOT,
                "fieldprof demo: %s has %d methods and %d order pairs (%s)%n",
                model.getAppVersion(),
                model.getMethods().size(),
                model.getPairs().size(),
                program.rebuilt()
                        ? String.format(
                                Locale.ROOT,
                                "analyzed and instrumented in %.1f s",
                                program.seconds())
                        : "reused the instrumented program");
        out.println("fieldprof demo: starting Kafka (KRaft) and Flink in this JVM ...");
        Path deviceState = settings.workDir().resolve("devices");
        deleteRecursively(deviceState);
        try (EmbeddedRuntime runtime = EmbeddedRuntime.builder().build().start()) {
            String bootstrap = runtime.bootstrapServers();
            out.printf(
                    Locale.ROOT,
                    "fieldprof demo: Kafka %s and Flink %s up in %.1f s%n",
                    bootstrap,
                    runtime.flink().restAddress(),
                    runtime.startTime().toMillis() / 1000.0);
            ProgramPublisher.publish(bootstrap, Topics.PROGRAMS, model, Duration.ofSeconds(30));
            JobClient job = startJob(runtime, bootstrap);
            out.printf(
                    Locale.ROOT, "fieldprof demo: estimation job %s submitted%n", job.getJobID());
            try (ReportTransport transport =
                            new KafkaReportTransport(
                                    KafkaTransportSettings.builder(
                                                    bootstrap, settings.workDir().resolve("spool"))
                                            .topic(Topics.FREQUENCY_REPORTS)
                                            .timeout(Duration.ofSeconds(10))
                                            .spoolMaxBytes(64L << 20)
                                            .queueCapacity(10_000)
                                            .build());
                    SimulatedDevices devices =
                            new SimulatedDevices(
                                    model,
                                    program.instrumentedJar(),
                                    deviceState,
                                    transport,
                                    new SimulatedDevices.DeviceUse(
                                            settings.devices(),
                                            settings.sessionsPerDevice(),
                                            settings.commandsPerSession(),
                                            settings.pause(),
                                            settings.runEvery()),
                                    settings.privacy());
                    EstimatesTail tail = new EstimatesTail(bootstrap, Topics.ESTIMATES);
                    DeadLetterTally deadLetters =
                            new DeadLetterTally(bootstrap, Topics.DEAD_LETTERS);
                    MonitorServer web =
                            settings.webPort() < 0
                                    ? null
                                    : new MonitorServer("127.0.0.1", settings.webPort())) {
                devices.start();
                show(bootstrap, runtime, devices, transport, tail, deadLetters, web);
            } finally {
                job.cancel();
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the JVM is already stopping, which is why we are here.
            }
        }
        out.println("fieldprof demo: stopped.");
    }

    private JobClient startJob(EmbeddedRuntime runtime, String bootstrap) throws Exception {
        FrequencyJobOptions options =
                FrequencyJobOptions.fromMap(
                        Map.of(
                                FrequencyJobOptions.BOOTSTRAP.key(), bootstrap,
                                FrequencyJobOptions.WINDOW.key(),
                                        settings.window().toMillis() + "ms",
                                // Estimates are committed with each checkpoint: check often.
                                FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), "2s",
                                FrequencyJobOptions.OUT_OF_ORDERNESS.key(), "1s",
                                FrequencyJobOptions.IDLENESS.key(), "3s",
                                FrequencyJobOptions.SHARDS.key(), "2",
                                FrequencyJobOptions.TRANSACTIONAL_ID_PREFIX.key(),
                                        "fieldprof-demo-" + System.currentTimeMillis()));
        StreamExecutionEnvironment env = runtime.environment();
        FrequencyEstimationJob.onKafka(options).buildInto(env);
        return env.executeAsync(FrequencyEstimationJob.NAME);
    }

    private void show(
            String bootstrap,
            EmbeddedRuntime runtime,
            SimulatedDevices devices,
            ReportTransport transport,
            EstimatesTail tail,
            DeadLetterTally deadLetters,
            MonitorServer web) {
        Instant started = Instant.now();
        Instant until =
                settings.duration() == null ? Instant.MAX : started.plus(settings.duration());
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        EstimateBoard board = new EstimateBoard(null);
        TerminalView view = new TerminalView(settings.top(), System.console() != null);
        Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        MonitorHistory history = new MonitorHistory(30, 6, settings.window().toMillis());
        // The MiniCluster serves Flink's REST API: the page shows the job's own gauges (reports
        // waiting for a model, the watermark hold) as `monitor --flink-rest` would.
        FlinkJobHealth jobs =
                web == null ? null : FlinkJobHealth.feeding(runtime.flink().restAddress(), history);
        try (MonitorFeed feed =
                web == null
                        ? null
                        : new MonitorFeed(
                                client,
                                MonitorFeed.TopicNames.defaults(),
                                Duration.ofHours(1),
                                null,
                                history,
                                web)) {
            showUntilStopped(
                    bootstrap,
                    runtime,
                    devices,
                    transport,
                    tail,
                    deadLetters,
                    web,
                    feed,
                    started,
                    until,
                    jvmStart,
                    board,
                    view);
        } finally {
            if (jobs != null) {
                jobs.close();
            }
        }
    }

    private void showUntilStopped(
            String bootstrap,
            EmbeddedRuntime runtime,
            SimulatedDevices devices,
            ReportTransport transport,
            EstimatesTail tail,
            DeadLetterTally deadLetters,
            MonitorServer web,
            MonitorFeed feed,
            Instant started,
            Instant until,
            long jvmStart,
            EstimateBoard board,
            TerminalView view) {
        String firstEstimate = null;
        boolean drawn = false;
        while (!stopped.get() && Instant.now().isBefore(until)) {
            int arrived = tail.pollWithTimes(Duration.ofMillis(400), board::accept);
            if (feed != null) {
                feed.pollOnce(Duration.ofMillis(100));
            }
            arrived += deadLetters.poll(Duration.ZERO);
            if (arrived > 0 && firstEstimate == null) {
                firstEstimate =
                        String.format(
                                Locale.ROOT,
                                "first estimate %.1f s after start",
                                (System.currentTimeMillis() - jvmStart) / 1000.0);
            }
            if (arrived > 0 || !drawn) {
                drawn = true;
                TransportCounters sent = transport.counters();
                List<String> header = new ArrayList<>();
                header.add(
                        String.format(
                                Locale.ROOT,
                                "fieldprof demo — %d devices, window %ds, running %ds%s",
                                settings.devices(),
                                settings.window().toSeconds(),
                                Duration.between(started, Instant.now()).toSeconds(),
                                firstEstimate == null ? "" : ", " + firstEstimate));
                header.add(
                        "Kafka "
                                + bootstrap
                                + "   estimates topic "
                                + Topics.ESTIMATES
                                + "   Flink web UI "
                                + runtime.flink().restAddress());
                header.add("attach: ./fieldprof watch --bootstrap " + bootstrap);
                if (web != null) {
                    header.add("web view: " + web.address());
                }
                header.add(
                        String.format(
                                Locale.ROOT,
                                "program runs %d   reports sent %d (acknowledged %d, spooled %d,"
                                        + " dropped %d)",
                                devices.sessions(),
                                devices.reports(),
                                sent.sent(),
                                sent.spooledNow(),
                                sent.droppedTotal()));
                SimulatedDevices.Exposure exposure = devices.mostExposed();
                header.addAll(exposure.describe());
                header.add(
                        String.format(
                                Locale.ROOT,
                                "runs refused: %d by the budget, %d by the daily cap of %d"
                                        + " reports",
                                devices.refusedByBudget(),
                                devices.refusedByCap(),
                                exposure.ledger().reportsPerDayCap()));
                if (deadLetters.total() > 0) {
                    header.add(
                            "dead letters "
                                    + deadLetters.total()
                                    + " "
                                    + deadLetters.byReason()
                                    + ", newest: "
                                    + deadLetters.newestReason());
                }
                out.print(view.render(board, header));
                out.print(TerminalView.healthLine(board, deadLetters.byReason()));
                out.flush();
            }
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear " + dir, e);
        }
    }
}
