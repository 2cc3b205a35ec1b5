package dev.fieldprof.cli.load;

import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.load.PipelineObserver.CommittedWindow;
import dev.fieldprof.cli.load.PipelineObserver.Observation;
import dev.fieldprof.cli.options.DurationConverter;
import dev.fieldprof.cli.options.KafkaBootstrap;
import dev.fieldprof.cli.options.KafkaClientProperties;
import dev.fieldprof.cli.programs.ProgramPublisher;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.Topics;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof load}: simulated devices with the real SDK publish randomized reports at a
 * target rate to a running deployment (the frequency job already running there), and the command
 * measures what the job made of them: reports counted, throughput, report → estimate latency and
 * window lag (see {@link LoadSummary} for the definitions). Exits 1 unless every report made was
 * counted exactly once.
 */
@Command(
        name = "load",
        mixinStandardHelpOptions = true,
        description = {
            "Load-test a running deployment: simulated devices (the real client SDK, one device"
                    + " id,",
            "ledger and randomizer each) send randomized reports at --rate for --duration, then",
            "the command waits for their estimate windows and prints the sustained rate, the",
            "report -> estimate latency p50/p95/p99 and the window lag. The frequency job must be",
            "running against the broker. Exit 1 unless every report was counted exactly once."
        })
public final class LoadCommand implements Callable<Integer> {
    /** Time the job gets to read a freshly published model before the first report. */
    private static final Duration MODEL_HEAD_START = Duration.ofSeconds(2);

    /** Quiet time after the last report was counted, in which a report counted twice would show. */
    private static final Duration SETTLE = Duration.ofSeconds(5);

    @CommandLine.Mixin KafkaBootstrap bootstrap;

    @CommandLine.Mixin KafkaClientProperties kafka;

    @Option(
            names = "--devices",
            defaultValue = "100",
            description = "Simulated devices (default: ${DEFAULT-VALUE}).")
    int devices;

    @Option(
            names = "--rate",
            required = true,
            paramLabel = "REPORTS/S",
            description = "Target reports per second, all devices together.")
    double rate;

    @Option(
            names = "--duration",
            required = true,
            converter = DurationConverter.class,
            description = "How long the devices send, e.g. 60s.")
    Duration duration;

    @Option(
            names = "--model",
            paramLabel = "FILE",
            description =
                    "Program model the devices run (published first). Default: a synthetic"
                            + " model of --methods methods with Zipf shares.")
    Path modelFile;

    @Option(
            names = "--app",
            paramLabel = "APP:VERSION",
            description =
                    "App version the model is published and reported under (default: a fresh"
                            + " fieldprof-load:<time> per run, so runs never share a window).")
    String app;

    @Option(
            names = "--methods",
            defaultValue = "50",
            description = "Methods of the synthetic model (default: ${DEFAULT-VALUE}).")
    int methods;

    @Option(
            names = "--workers",
            defaultValue = "2",
            description =
                    "Sending threads, each with its own transport (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(
            names = "--state-dir",
            paramLabel = "DIR",
            description =
                    "Where the devices keep their state (default: a fresh directory on tmpfs,"
                            + " /dev/shm, deleted at the end, so that the devices' fsyncs do not"
                            + " set the pace).")
    Path stateDir;

    @Option(
            names = "--drain-timeout",
            defaultValue = "2m",
            converter = DurationConverter.class,
            description =
                    "After sending, how long to wait for every report to be counted (default:"
                            + " ${DEFAULT-VALUE}).")
    Duration drainTimeout;

    @Option(
            names = "--progress",
            defaultValue = "5s",
            converter = DurationConverter.class,
            description = "Interval of the progress line (default: ${DEFAULT-VALUE}).")
    Duration progress;

    @Option(
            names = "--json",
            paramLabel = "FILE",
            description = "Also write the figures as JSON to FILE.")
    Path json;

    @Option(
            names = "--seed",
            defaultValue = "1",
            description = "Seed of the simulated method entries (default: ${DEFAULT-VALUE}).")
    long seed;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        validate();
        PrintStream out = new PrintStream(System.out, true);
        String runId = Long.toString(System.currentTimeMillis(), 36);
        String appVersion = app != null ? app : "fieldprof-load:" + runId;
        ProgramModel model =
                modelFile == null
                        ? SyntheticProgram.model(appVersion, methods)
                        : ProgramModel.newBuilder(ProgramModels.read(modelFile))
                                .setAppVersion(appVersion)
                                .build();
        String servers = bootstrap.servers();
        Properties client = kafka.connect(servers, spec.commandLine());
        ProgramPublisher.publish(client, Topics.PROGRAMS, model, Duration.ofSeconds(30));
        Thread.sleep(MODEL_HEAD_START.toMillis());
        String devicePrefix = "load-" + runId + "-";
        boolean ownState = stateDir == null;
        Path state = ownState ? freshStateDir() : stateDir;
        out.printf(
                Locale.ROOT,
                "fieldprof load: %d devices, %.0f reports/s for %d s to %s, app %s (%d methods,"
                        + " k = %d)%n",
                devices,
                rate,
                duration.toSeconds(),
                servers,
                appVersion,
                model.getMethods().size(),
                model.getPrivacyConfigs().get(0).getK());
        try (PipelineObserver observer =
                        new PipelineObserver(
                                client,
                                Topics.FREQUENCY_REPORTS,
                                Topics.ESTIMATES,
                                Topics.DEAD_LETTERS,
                                appVersion,
                                devicePrefix);
                LoadFleet fleet =
                        new LoadFleet(
                                model,
                                client,
                                Topics.FREQUENCY_REPORTS,
                                devices,
                                workers,
                                devicePrefix,
                                state)) {
            LoadSummary summary = run(fleet, observer, out);
            summary.lines().forEach(line -> out.println("fieldprof load: " + line));
            if (json != null) {
                Files.writeString(json, summary.json() + System.lineSeparator());
            }
            if (summary.windows() == 0 && summary.made() > 0) {
                throw new CliFailure(
                        "no estimate window of the run was committed within --drain-timeout "
                                + drainTimeout
                                + ": is the frequency job running against "
                                + servers
                                + "?");
            }
            if (!summary.exact()) {
                throw new CliFailure(
                        String.format(
                                Locale.ROOT,
                                "%d of %d reports counted within --drain-timeout"
                                        + " %s (%d on the topic, %d dead letters, %d dropped)",
                                summary.counted(),
                                summary.made(),
                                drainTimeout,
                                summary.distinctOnTopic(),
                                summary.deadLetters(),
                                summary.dropped()));
            }
            return 0;
        } finally {
            if (ownState) {
                deleteRecursively(state);
            }
        }
    }

    private LoadSummary run(LoadFleet fleet, PipelineObserver observer, PrintStream out)
            throws InterruptedException {
        long start = System.currentTimeMillis();
        long end = start + duration.toMillis();
        fleet.start(rate, seed);
        long lastMade = 0;
        long lastAt = start;
        while (System.currentTimeMillis() < end) {
            Thread.sleep(
                    Math.min(progress.toMillis(), Math.max(1, end - System.currentTimeMillis())));
            long now = System.currentTimeMillis();
            long made = fleet.made();
            progressLine(
                    out,
                    "sending",
                    now - start,
                    (made - lastMade) * 1000.0 / Math.max(1, now - lastAt),
                    fleet,
                    observer.snapshot());
            lastMade = made;
            lastAt = now;
        }
        fleet.stop();
        long sendEnd = System.currentTimeMillis();
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        fleet.drain(deadline);
        long made = fleet.made();
        // Until every report is counted (or the deadline), then a quiet moment for doubles.
        long countedAt = 0;
        long lastLine = System.currentTimeMillis();
        while (System.nanoTime() - deadline < 0) {
            Observation seen = observer.snapshot();
            if (seen.failure() != null) {
                throw new CliFailure(seen.failure());
            }
            long now = System.currentTimeMillis();
            if (seen.counted() >= made && seen.appendTimes().length >= made) {
                if (countedAt == 0) {
                    countedAt = now;
                } else if (now - countedAt >= SETTLE.toMillis()) {
                    break;
                }
            }
            if (now - lastLine >= progress.toMillis()) {
                progressLine(out, "draining", now - start, 0, fleet, seen);
                lastLine = now;
            }
            Thread.sleep(100); // polling the observer's counts, a real condition
        }
        TransportCounters counters = fleet.counters();
        return LoadSummary.of(
                devices,
                rate,
                start,
                sendEnd,
                made,
                counters.sent(),
                counters.droppedTotal(),
                observer.snapshot());
    }

    private static void progressLine(
            PrintStream out,
            String phase,
            long elapsedMillis,
            double sentPerSecond,
            LoadFleet fleet,
            Observation seen) {
        TransportCounters counters = fleet.counters();
        CommittedWindow newest =
                seen.windows().stream()
                        .max(Comparator.comparingLong(CommittedWindow::seenMillis))
                        .orElse(null);
        out.printf(
                Locale.ROOT,
                "[%4d s] %s  sent %,.0f/s (%,d made, %,d acked, %,d spooled now)  on topic %,d"
                        + "  estimates %d windows, %,d counted%s%n",
                elapsedMillis / 1000,
                phase,
                sentPerSecond,
                fleet.made(),
                counters.sent(),
                counters.spooledNow(),
                seen.appendTimes().length,
                seen.windows().size(),
                seen.counted(),
                newest == null
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                ", newest window lag %.1f s",
                                (newest.seenMillis() - newest.endMillis()) / 1000.0));
    }

    private void validate() {
        CommandLine cli = spec.commandLine();
        if (devices < 1) {
            throw new CommandLine.ParameterException(cli, "--devices must be >= 1, got " + devices);
        }
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new CommandLine.ParameterException(cli, "--rate must be > 0, got " + rate);
        }
        if (workers < 1 || workers > devices) {
            throw new CommandLine.ParameterException(
                    cli,
                    "--workers must be between 1 and --devices (" + devices + "), got " + workers);
        }
        if (modelFile == null && methods < 2) {
            throw new CommandLine.ParameterException(cli, "--methods must be >= 2, got " + methods);
        }
        if (modelFile != null && !Files.isRegularFile(modelFile)) {
            throw new CommandLine.ParameterException(
                    cli, "--model " + modelFile + " is not a file");
        }
        if (app != null && !app.contains(":")) {
            throw new CommandLine.ParameterException(
                    cli, "--app must be APP:VERSION, got '" + app + "'");
        }
    }

    private static Path freshStateDir() throws IOException {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempDirectory(shm, "fieldprof-load-")
                : Files.createTempDirectory("fieldprof-load-");
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
            throw new UncheckedIOException("cannot delete the device state in " + dir, e);
        }
    }
}
