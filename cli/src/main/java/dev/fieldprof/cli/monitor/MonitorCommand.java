package dev.fieldprof.cli.monitor;

import dev.fieldprof.cli.CliFailure;
import dev.fieldprof.monitor.EstimateBoard;
import dev.fieldprof.monitor.EstimateJson;
import dev.fieldprof.monitor.EstimatesTail;
import dev.fieldprof.monitor.MonitorServer;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fieldprof monitor}: the live estimates as a web page. */
@Command(
        name = "monitor",
        mixinStandardHelpOptions = true,
        description = "Serve a web page with live frequency estimates of a deployment.")
public final class MonitorCommand implements Callable<Integer> {

    @Option(
            names = "--host",
            defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(
            names = "--port",
            defaultValue = "8080",
            description = "Port to listen on, 0 for any (default: ${DEFAULT-VALUE}).")
    int port;

    @CommandLine.Mixin EstimatesSource source;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (port < 0 || port > 65535) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--port must be in [0, 65535], got " + port);
        }
        source.validate(spec.commandLine());
        AtomicBoolean stopped = new AtomicBoolean();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopped.set(true)));
        EstimateBoard board = new EstimateBoard(source.app);
        try (EstimatesTail tail = new EstimatesTail(source.bootstrap, source.topic);
                MonitorServer server = new MonitorServer(host, port)) {
            System.out.println("fieldprof monitor: open " + server.address());
            while (!stopped.get()) {
                if (tail.poll(Duration.ofMillis(500), board::accept) > 0) {
                    server.publish(EstimateJson.of(board));
                }
            }
        } catch (IllegalStateException | KafkaException e) {
            throw new CliFailure(
                    "cannot read "
                            + source.topic
                            + " at "
                            + source.bootstrap
                            + ": "
                            + e.getMessage(),
                    e);
        } catch (UncheckedIOException e) {
            throw new CliFailure(e.getMessage(), e);
        }
        return 0;
    }
}
