package dev.fieldprof.cli.jobs;

import dev.fieldprof.cli.options.DurationConverter;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.runtime.FlinkRestClient;
import dev.fieldprof.runtime.FlinkRestClient.FlinkRestException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fieldprof jobs cancel}: cancels a job on a Flink cluster and waits until it stopped. */
@Command(
        name = "cancel",
        mixinStandardHelpOptions = true,
        description =
                "Cancel a job on a Flink cluster through its REST API and wait until it stopped.")
public final class JobsCancelCommand implements Callable<Integer> {

    private static final Pattern JOB_ID = Pattern.compile("[0-9a-fA-F]{32}");

    @Parameters(paramLabel = "JOB-ID", description = "The job's id (32 hex digits).")
    String jobId;

    @Option(
            names = "--jobmanager",
            defaultValue = "127.0.0.1:8081",
            paramLabel = "HOST:PORT",
            description = "REST address of the JobManager (default: ${DEFAULT-VALUE}).")
    String jobmanager;

    @Option(
            names = "--timeout",
            defaultValue = "60s",
            converter = DurationConverter.class,
            description = "How long to wait for the job to stop (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (!JOB_ID.matcher(jobId).matches()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "JOB-ID must be 32 hex digits, got '" + jobId + "'");
        }
        FlinkRestClient flink;
        try {
            flink = FlinkRestClient.forAddress(jobmanager);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--jobmanager must be HOST:PORT, got '" + jobmanager + "'");
        }
        try {
            String state = flink.jobState(jobId);
            if (!FlinkRestClient.TERMINAL_STATES.contains(state)) {
                flink.cancel(jobId);
                state = flink.awaitState(jobId, Set.of("CANCELED"), timeout);
            }
            spec.commandLine().getOut().printf("job %s %s%n", jobId, state);
            spec.commandLine().getOut().flush();
            return 0;
        } catch (FlinkRestException e) {
            throw new CliFailure(e.getMessage());
        }
    }
}
