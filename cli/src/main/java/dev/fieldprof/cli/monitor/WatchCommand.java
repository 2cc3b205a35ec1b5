package dev.fieldprof.cli.monitor;

import dev.fieldprof.cli.options.DurationConverter;
import dev.fieldprof.cli.options.KafkaClientProperties;
import dev.fieldprof.cli.options.KafkaFailure;
import dev.fieldprof.monitor.DeadLetterTally;
import dev.fieldprof.monitor.EstimateBoard;
import dev.fieldprof.monitor.EstimatesTail;
import dev.fieldprof.monitor.LiveView;
import dev.fieldprof.monitor.TerminalView;
import dev.fieldprof.schemas.Topics;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fieldprof watch}: the live estimate view for any running deployment. */
@Command(
        name = "watch",
        mixinStandardHelpOptions = true,
        description = "Show live frequency estimates from the estimates topic of a deployment.")
public final class WatchCommand implements Callable<Integer> {

    @Option(
            names = "--top",
            defaultValue = "10",
            description = "Methods listed per estimate (default: ${DEFAULT-VALUE}).")
    int top;

    @Option(
            names = "--duration",
            converter = DurationConverter.class,
            description = "Stop after this long (default: until Ctrl-C).")
    Duration duration;

    @CommandLine.Mixin EstimatesSource source;

    @CommandLine.Mixin KafkaClientProperties kafka;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (top < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--top must be >= 1, got " + top);
        }
        source.validate(spec.commandLine());
        Properties client = kafka.connect(source.bootstrap, spec.commandLine());
        PrintStream out = new PrintStream(System.out, true);
        AtomicBoolean stopped = new AtomicBoolean();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopped.set(true)));
        Instant until = duration == null ? Instant.MAX : Instant.now().plus(duration);
        try (EstimatesTail tail = new EstimatesTail(client, source.topic);
                DeadLetterTally deadLetters = new DeadLetterTally(client, Topics.DEAD_LETTERS)) {
            LiveView view =
                    new LiveView(
                            tail,
                            deadLetters,
                            new EstimateBoard(source.app),
                            new TerminalView(top, System.console() != null),
                            out);
            view.run(
                    () ->
                            List.of(
                                    "fieldprof watch  "
                                            + source.bootstrap
                                            + "  topic "
                                            + source.topic),
                    stopped::get,
                    until);
        } catch (IllegalStateException | KafkaException e) {
            throw KafkaFailure.of(
                    e,
                    client,
                    "cannot read "
                            + source.topic
                            + " at "
                            + source.bootstrap
                            + ": "
                            + e.getMessage());
        }
        return 0;
    }
}
