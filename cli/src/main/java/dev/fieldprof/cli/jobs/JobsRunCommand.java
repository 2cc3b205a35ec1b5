package dev.fieldprof.cli.jobs;

import dev.fieldprof.cli.options.KafkaClientProperties;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.jobs.io.KafkaJobOptions;
import dev.fieldprof.jobs.paths.PathJobOptions;
import dev.fieldprof.jobs.paths.PathModelJob;
import dev.fieldprof.jobs.shuffle.ShufflerJob;
import dev.fieldprof.jobs.shuffle.ShufflerJobOptions;
import dev.fieldprof.runtime.EmbeddedFlink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fieldprof jobs run}: runs a job on a Flink MiniCluster inside this JVM (against any Kafka
 * cluster), or, with {@code --jobmanager}, submits it to a Flink cluster like {@code jobs submit}.
 */
@Command(
        name = "run",
        modelTransformer = JobsRunCommand.JobOptionsFollowTheJob.class,
        mixinStandardHelpOptions = true,
        description = {
            "Run a fieldprof job here, on a Flink MiniCluster in this JVM, until Ctrl-C.",
            "With --jobmanager, submit it to that cluster instead. Job options follow the job"
                    + " name, e.g.",
            "  fieldprof jobs run frequency --bootstrap 127.0.0.1:9092 --window 1m",
            "The jobs' options are listed below (and in docs/jobs.md)."
        })
public final class JobsRunCommand implements Callable<Integer> {

    @Parameters(
            index = "0",
            paramLabel = "JOB",
            description = "Job to run: frequency, paths or shuffler.")
    String job;

    @Parameters(
            index = "1..*",
            paramLabel = "JOB-OPTION",
            description = "Options passed to the job.")
    List<String> jobArgs = new ArrayList<>();

    @Option(
            names = "--jobmanager",
            paramLabel = "HOST:PORT",
            description = "Submit to this Flink cluster's REST address instead of running here.")
    String jobmanager;

    @Option(
            names = "--task-slots",
            defaultValue = "4",
            description = "Task slots of the local MiniCluster (default: ${DEFAULT-VALUE}).")
    int taskSlots;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!JobsSubmitCommand.JOBS.containsKey(job)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "JOB must be one of "
                            + JobsSubmitCommand.JOBS.keySet()
                            + ", got '"
                            + job
                            + "'");
        }
        String[] args = jobArgs.toArray(String[]::new);
        KafkaJobOptions options;
        try {
            options = JobsSubmitCommand.parseOptions(job, args);
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (jobmanager != null) {
            List<String> submit =
                    new ArrayList<>(List.of("--jobmanager", jobmanager, "--job", job, "--"));
            submit.addAll(jobArgs);
            return spec.parent().subcommands().get("submit").execute(submit.toArray(String[]::new));
        }
        if (taskSlots < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--task-slots must be >= 1, got " + taskSlots);
        }
        java.util.Properties kafkaClient;
        try {
            // Read here: the job's main() runs in this JVM.
            kafkaClient = options.kafkaClient();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        // Before the MiniCluster starts: a refused login would otherwise restart the job forever.
        KafkaClientProperties.check(kafkaClient);
        ReportTopicWarning.print(job, jobArgs, kafkaClient, spec.commandLine().getErr());
        try (EmbeddedFlink flink = EmbeddedFlink.builder().taskSlots(taskSlots).start()) {
            StreamExecutionEnvironment env = flink.environment();
            String name;
            if (options instanceof PathJobOptions paths) {
                PathModelJob.onKafka(paths).buildInto(env);
                name = PathModelJob.NAME;
            } else if (options instanceof ShufflerJobOptions shuffler) {
                ShufflerJob.onKafka(shuffler).buildInto(env);
                name = ShufflerJob.NAME;
            } else {
                FrequencyEstimationJob.onKafka((FrequencyJobOptions) options).buildInto(env);
                name = FrequencyEstimationJob.NAME;
            }
            JobClient client = env.executeAsync(name);
            spec.commandLine()
                    .getOut()
                    .printf(
                            "job %s running on a local MiniCluster (web UI %s, Flink's warnings"
                                    + " in %s); Ctrl-C stops it%n",
                            client.getJobID(), flink.restAddress(), logFile());
            spec.commandLine().getOut().flush();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> client.cancel().join()));
            var result = client.getJobExecutionResult();
            JobProgress progress = new JobProgress();
            while (true) {
                try {
                    result.get(5, java.util.concurrent.TimeUnit.SECONDS);
                    break;
                } catch (java.util.concurrent.TimeoutException stillRunning) {
                    var graph = flink.miniCluster().getExecutionGraph(client.getJobID()).get();
                    for (String line : progress.changes(JobProgress.Snapshot.of(graph))) {
                        spec.commandLine().getOut().println(line);
                    }
                    spec.commandLine().getOut().flush();
                }
            }
        } catch (java.util.concurrent.ExecutionException e) {
            String cause =
                    dev.fieldprof.jobs.io.KafkaConnectionCheck.problem(e.getCause(), kafkaClient)
                            .orElse(e.getCause().getMessage());
            throw new CliFailure("the job failed: " + cause, e.getCause());
        }
        return 0;
    }

    /** Where the CLI's log4j2.xml writes Flink's and Kafka's warnings. */
    static String logFile() {
        return System.getProperty(
                dev.fieldprof.cli.support.LogFile.PROPERTY,
                java.nio.file.Path.of(
                                System.getProperty("java.io.tmpdir"),
                                "fieldprof-" + System.getProperty("user.name") + ".log")
                        .toString());
    }

    /**
     * Everything after JOB is the job's: {@code jobs run frequency --bootstrap H:P --window 1m}
     * (picocli would otherwise take {@code --bootstrap} for an option of this command and refuse
     * it); the help ends with both jobs' options.
     */
    public static final class JobOptionsFollowTheJob implements CommandLine.IModelTransformer {
        @Override
        public CommandLine.Model.CommandSpec transform(CommandLine.Model.CommandSpec spec) {
            spec.parser().stopAtPositional(true);
            // The jobs' own declarations, so that this help cannot drift from their parsers.
            spec.usageMessage()
                    .footer(
                            "%nOptions of the frequency job:%n"
                                    + FrequencyJobOptions.help().replace("%", "%%")
                                    + "%nOptions of the paths job:%n"
                                    + PathJobOptions.help().replace("%", "%%")
                                    + "%nOptions of the shuffler job:%n"
                                    + ShufflerJobOptions.help().replace("%", "%%"));
            return spec;
        }
    }
}
