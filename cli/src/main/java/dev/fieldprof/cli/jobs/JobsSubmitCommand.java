package dev.fieldprof.cli.jobs;

import dev.fieldprof.cli.options.DurationConverter;
import dev.fieldprof.cli.options.KafkaClientProperties;
import dev.fieldprof.cli.support.CheckoutArtifacts;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.jobs.io.JobArguments;
import dev.fieldprof.jobs.io.KafkaClientSettings;
import dev.fieldprof.jobs.io.KafkaConnectionCheck;
import dev.fieldprof.jobs.io.KafkaJobOptions;
import dev.fieldprof.jobs.paths.PathJobOptions;
import dev.fieldprof.jobs.shuffle.ShufflerJobOptions;
import dev.fieldprof.runtime.FlinkRestClient;
import dev.fieldprof.runtime.FlinkRestClient.FlinkRestException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fieldprof jobs submit}: sends the shaded job jar to a Flink session cluster through its
 * REST API, runs one of the fieldprof jobs and waits until it is running.
 */
@Command(
        name = "submit",
        mixinStandardHelpOptions = true,
        description = {
            "Submit a fieldprof job to a Flink cluster through its REST API and wait until it"
                    + " runs.",
            "Arguments after -- go to the job's main(), e.g. -- --bootstrap 127.0.0.1:9092",
            "--kafka-properties FILE is read here to check the brokers first, and passed to the"
                    + " job unless its arguments name their own: the job reads it where its main()"
                    + " runs (the JobManager), so the file and the trust and key stores it names"
                    + " must be at that path on the cluster's machines too."
        })
public final class JobsSubmitCommand implements Callable<Integer> {

    /** The jobs this command knows, by the name {@code --job} takes. */
    static final Map<String, String> JOBS = new LinkedHashMap<>();

    static {
        JOBS.put("frequency", "dev.fieldprof.jobs.frequency.FrequencyEstimationJob");
        JOBS.put("paths", "dev.fieldprof.jobs.paths.PathModelJob");
        JOBS.put("shuffler", "dev.fieldprof.jobs.shuffle.ShufflerJob");
    }

    static final String JOB_JAR_GLOB = "fieldprof-jobs-*-job.jar";

    /** How long the brokers may take to answer the check before the job is submitted anyway. */
    private static final Duration BROKER_CHECK_TIMEOUT = Duration.ofSeconds(5);

    @Option(
            names = "--jobmanager",
            defaultValue = "127.0.0.1:8081",
            paramLabel = "HOST:PORT",
            description = "REST address of the JobManager (default: ${DEFAULT-VALUE}).")
    String jobmanager;

    @Option(
            names = "--jar",
            paramLabel = "PATH",
            description =
                    "Job jar (default: the built jobs/target/"
                            + JOB_JAR_GLOB
                            + " of this checkout, from 'mvn -pl jobs package').")
    Path jar;

    @Option(
            names = "--job",
            defaultValue = "frequency",
            paramLabel = "NAME",
            description = "Job to run: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
            completionCandidates = JobNames.class)
    String job;

    @Option(
            names = "--parallelism",
            paramLabel = "N",
            description = "Parallelism of the job (default: the cluster's).")
    Integer parallelism;

    @Option(
            names = "--wait",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description =
                    "Wait until the job runs (default: ${DEFAULT-VALUE}; --no-wait returns"
                            + " once it is accepted).")
    boolean waitRunning;

    @Option(
            names = "--timeout",
            defaultValue = "120s",
            converter = DurationConverter.class,
            description = "How long to wait for the job to run (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Parameters(paramLabel = "JOB-ARGS", description = "Arguments of the job's main(), after --.")
    List<String> jobArgs = new ArrayList<>();

    @Option(
            names = "--settle",
            defaultValue = "15s",
            converter = DurationConverter.OrZero.class,
            description =
                    "After it runs, watch the job this long: one that fails or restarts meanwhile"
                            + " exits 1 with the cause and the restart count instead of reporting"
                            + " RUNNING (0s: do not watch; default: ${DEFAULT-VALUE}).")
    Duration settle;

    /**
     * Read here, to check the brokers before submitting; passed on to the job as its own {@code
     * --kafka-properties} unless the job arguments name one (a path on the JobManager's machines,
     * where the job's main() reads it).
     */
    @CommandLine.Mixin KafkaClientProperties kafka;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        String entryClass = JOBS.get(job);
        if (entryClass == null) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--job must be one of "
                            + String.join(", ", JOBS.keySet())
                            + ", got '"
                            + job
                            + "'");
        }
        if (parallelism != null && parallelism < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--parallelism must be >= 1, got " + parallelism);
        }
        FlinkRestClient flink;
        try {
            flink = FlinkRestClient.forAddress(jobmanager);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--jobmanager must be HOST:PORT, got '" + jobmanager + "'");
        }
        Path jobJar = jar != null ? jar : defaultJobJar().orElseThrow(JobsSubmitCommand::noJar);
        if (!Files.isRegularFile(jobJar)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--jar: no such file: " + jobJar);
        }

        List<String> args = new ArrayList<>(jobArgs);
        if (kafka.file() != null && jobKafkaProperties(jobArgs).isEmpty()) {
            args.add("--" + KafkaJobOptions.KAFKA_PROPERTIES);
            args.add(kafka.file().toAbsolutePath().toString());
        }
        checkBrokers(args);
        PrintWriter out = spec.commandLine().getOut();
        try {
            String jarId = flink.uploadJar(jobJar);
            String jobId;
            try {
                jobId = flink.runJar(jarId, entryClass, args, parallelism);
            } catch (FlinkRestException e) {
                deleteQuietly(flink, jarId);
                throw e;
            }
            String state =
                    waitRunning
                            ? flink.awaitState(jobId, Set.of("RUNNING"), timeout)
                            : flink.jobState(jobId);
            if (waitRunning && !settle.isZero()) {
                watchSettling(flink, jobId);
            }
            out.printf(
                    "job %s %s: %s on %s%n",
                    jobId,
                    state,
                    entryClass.substring(entryClass.lastIndexOf('.') + 1),
                    flink.base());
            out.flush();
            return 0;
        } catch (FlinkRestException e) {
            throw new CliFailure(e.getMessage());
        }
    }

    /**
     * The options of the job named {@code job} (one of {@link #JOBS}) parsed from {@code args}.
     *
     * @throws IllegalArgumentException naming the option when one is unknown, missing or bad
     */
    static KafkaJobOptions parseOptions(String job, String[] args) {
        return switch (job) {
            case "paths" -> PathJobOptions.parse(args);
            case "shuffler" -> ShufflerJobOptions.parse(args);
            default -> FrequencyJobOptions.parse(args);
        };
    }

    /**
     * Asks the job's brokers, with the client properties this machine can read, before the job is
     * submitted: a refused login or certificate then ends this command with one line instead of a
     * job restarting on the cluster. Job arguments that do not parse, or a properties file only the
     * cluster has, leave the check to the job's main().
     */
    private void checkBrokers(List<String> args) {
        String[] array = args.toArray(String[]::new);
        String bootstrap;
        try {
            bootstrap = parseOptions(job, array).bootstrap();
        } catch (RuntimeException e) {
            return;
        }
        Optional<String> jobFile = jobKafkaProperties(args);
        java.util.Properties client;
        if (kafka.file() != null || jobFile.isEmpty()) {
            try {
                client = kafka.with(bootstrap);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        } else if (Files.isReadable(Path.of(jobFile.get()))) {
            client = KafkaClientSettings.load(jobFile.get(), "--kafka-properties", bootstrap);
        } else {
            return;
        }
        try {
            KafkaConnectionCheck.check(client, BROKER_CHECK_TIMEOUT);
        } catch (KafkaConnectionCheck.KafkaConnectionException e) {
            if (e.refused()) {
                throw new CliFailure(e.getMessage(), e.getCause());
            }
            // The cluster may reach brokers this machine cannot: say so and submit anyway.
            spec.commandLine().getErr().println("warning: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return;
        }
        ReportTopicWarning.print(job, args, client, spec.commandLine().getErr());
    }

    /** The job's own {@code --kafka-properties} value among its arguments, if any. */
    static Optional<String> jobKafkaProperties(List<String> jobArgs) {
        try {
            return Optional.ofNullable(
                            JobArguments.split(jobArgs.toArray(String[]::new))
                                    .get(KafkaJobOptions.KAFKA_PROPERTIES))
                    .filter(value -> !value.isBlank());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * A job that starts and then fails or restarts in a loop (a bad option, an unreachable broker)
     * is RUNNING for a moment: watching it for a while is what tells the user the truth.
     */
    private void watchSettling(FlinkRestClient flink, String jobId) {
        long deadline = System.nanoTime() + settle.toNanos();
        while (true) {
            String state = flink.jobState(jobId);
            long restarts = flink.restarts(jobId);
            if (restarts > 0 || FlinkRestClient.TERMINAL_STATES.contains(state)) {
                String cause = flink.newestFailure(jobId);
                throw new CliFailure(
                        "job "
                                + jobId
                                + (restarts > 0
                                        ? " restarted " + restarts + " time(s)"
                                        : " is " + state)
                                + " within "
                                + settle.toSeconds()
                                + " s of starting"
                                + (cause == null ? "" : ": " + cause)
                                + " (more: the Flink web UI at "
                                + flink.base()
                                + ")");
            }
            if (System.nanoTime() >= deadline) {
                return;
            }
            try {
                Thread.sleep(500); // polling interval of a real condition
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void deleteQuietly(FlinkRestClient flink, String jarId) {
        try {
            flink.deleteJar(jarId);
        } catch (FlinkRestException ignored) {
            // The run failure is what the user needs to see; a leftover upload is harmless.
        }
    }

    private static CliFailure noJar() {
        return new CliFailure(
                "no job jar found (jobs/target/"
                        + JOB_JAR_GLOB
                        + "): build it with 'mvn -pl jobs package' or pass --jar");
    }

    /** The newest {@code jobs/target/fieldprof-jobs-*-job.jar} of this checkout. */
    static Optional<Path> defaultJobJar() {
        return CheckoutArtifacts.find("jobs", JOB_JAR_GLOB);
    }

    static Optional<Path> newestJobJar(Path target) {
        return CheckoutArtifacts.newest(target, JOB_JAR_GLOB);
    }

    /** Names {@code --job} accepts, for the help text and shell completion. */
    static final class JobNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return JOBS.keySet().iterator();
        }
    }
}
