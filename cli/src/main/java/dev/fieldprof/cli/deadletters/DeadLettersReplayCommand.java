package dev.fieldprof.cli.deadletters;

import dev.fieldprof.cli.options.DurationConverter;
import dev.fieldprof.cli.options.KafkaBootstrap;
import dev.fieldprof.cli.options.KafkaClientProperties;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof dead-letters replay}: re-submits the reports whose cause of rejection is gone.
 */
@Command(
        name = "replay",
        mixinStandardHelpOptions = true,
        description = {
            "Re-submit the frequency reports of LATE and MODEL_WAIT_EXPIRED dead letters whose"
                + " cause is gone (the app version's model is now published; the report's window is"
                + " still within the allowed lateness) to the replay topic, with their original"
                + " record time: the frequency job counts each once, in its original window.",
            "Prints what it replayed and what it left, with the reason per letter. A letter"
                    + " replayed before is left (the job would count it no second time anyway)."
        })
public final class DeadLettersReplayCommand implements Callable<Integer> {

    @Mixin KafkaBootstrap bootstrap;

    @Mixin KafkaClientProperties kafka;

    @Option(
            names = "--allowed-lateness",
            converter = DurationConverter.OrZero.class,
            paramLabel = "DURATION",
            description = "The frequency job's --allowed-lateness (default: ${DEFAULT-VALUE}).")
    Duration allowedLateness =
            FrequencyJobOptions.ALLOWED_LATENESS.parse(
                    FrequencyJobOptions.ALLOWED_LATENESS.defaultText());

    @Option(
            names = "--window",
            converter = DurationConverter.class,
            paramLabel = "DURATION",
            description = "The frequency job's --window (default: ${DEFAULT-VALUE}).")
    Duration window = FrequencyJobOptions.WINDOW.parse(FrequencyJobOptions.WINDOW.defaultText());

    @Option(
            names = "--dead-letter-topic",
            paramLabel = "TOPIC",
            description = "Where the letters are (default: ${DEFAULT-VALUE}).")
    String deadLetterTopic = Topics.DEAD_LETTERS;

    @Option(
            names = "--reports-topic",
            paramLabel = "TOPIC",
            description = "The frequency reports topic (default: ${DEFAULT-VALUE}).")
    String reportsTopic = Topics.FREQUENCY_REPORTS;

    @Option(
            names = "--programs-topic",
            paramLabel = "TOPIC",
            description = "The program models (default: ${DEFAULT-VALUE}).")
    String programsTopic = Topics.PROGRAMS;

    @Option(
            names = "--replay-topic",
            paramLabel = "TOPIC",
            description =
                    "Where replayed reports go, as the job reads them (default: ${DEFAULT-VALUE}).")
    String replayTopic = Topics.FREQUENCY_REPLAY;

    @Option(names = "--dry-run", description = "Show what would be replayed; write nothing.")
    boolean dryRun;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (window.isZero() || window.isNegative() || allowedLateness.isNegative()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--window must be > 0 and --allowed-lateness >= 0, got "
                            + window
                            + ", "
                            + allowedLateness);
        }
        DeadLetterReplay replay =
                new DeadLetterReplay(
                        kafka.connect(bootstrap.servers(), spec.commandLine()),
                        new DeadLetterReplay.Topics(
                                deadLetterTopic, reportsTopic, programsTopic, replayTopic),
                        window,
                        allowedLateness);
        DeadLetterReplay.Outcome outcome = replay.run(System.currentTimeMillis(), dryRun);
        spec.commandLine().getOut().print(outcome.describe(dryRun));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
