package dev.fieldprof.cli.monitor;

import dev.fieldprof.cli.CliFailure;
import dev.fieldprof.cli.options.DurationConverter;
import dev.fieldprof.monitor.EstimateBoard;
import dev.fieldprof.monitor.EstimatesTail;
import dev.fieldprof.monitor.LiveView;
import dev.fieldprof.monitor.TerminalView;
import dev.fieldprof.schemas.Topics;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
            names = "--bootstrap",
            required = true,
            paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers.")
    String bootstrap;

    @Option(
            names = "--app",
            paramLabel = "APP:VERSION",
            description = "Show only this app version (default: all).")
    String app;

    @Option(
            names = "--top",
            defaultValue = "10",
            description = "Methods listed per estimate (default: ${DEFAULT-VALUE}).")
    int top;

    @Option(
            names = "--topic",
            defaultValue = Topics.ESTIMATES,
            description = "Estimates topic (default: ${DEFAULT-VALUE}).")
    String topic;

    @Option(
            names = "--duration",
            converter = DurationConverter.class,
            description = "Stop after this long (default: until Ctrl-C).")
    Duration duration;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (top < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--top must be >= 1, got " + top);
        }
        if (app != null && !app.contains(":")) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--app must be APP:VERSION, got '" + app + "'");
        }
        PrintStream out = new PrintStream(System.out, true);
        AtomicBoolean stopped = new AtomicBoolean();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopped.set(true)));
        Instant until = duration == null ? Instant.MAX : Instant.now().plus(duration);
        try (EstimatesTail tail = new EstimatesTail(bootstrap, topic)) {
            LiveView view =
                    new LiveView(
                            tail,
                            new EstimateBoard(app),
                            new TerminalView(top, System.console() != null),
                            out);
            view.run(
                    () -> List.of("fieldprof watch  " + bootstrap + "  topic " + topic),
                    stopped::get,
                    until);
        } catch (IllegalStateException | KafkaException e) {
            throw new CliFailure(
                    "cannot read " + topic + " at " + bootstrap + ": " + e.getMessage(), e);
        }
        return 0;
    }
}
