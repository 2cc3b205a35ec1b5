package dev.fieldprof.cli.monitor;

import dev.fieldprof.cli.options.DurationConverter;
import dev.fieldprof.cli.options.KafkaClientProperties;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.monitor.FlinkJobHealth;
import dev.fieldprof.monitor.MonitorFeed;
import dev.fieldprof.monitor.MonitorHistory;
import dev.fieldprof.monitor.MonitorServer;
import dev.fieldprof.runtime.FlinkRestClient;
import dev.fieldprof.schemas.Topics;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof monitor}: a web page with the estimates over the last windows (95% bands), the
 * hot set's changes, health (reports, dead letters, lag, QP, edge models), the privacy parameters
 * and a comparison of two app versions; history filled from the topics at start, live after.
 */
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

    @Option(
            names = "--allowed-host",
            paramLabel = "NAME",
            split = ",",
            description =
                    "A further name browsers may reach the page by (e.g. behind a proxy);"
                            + " requests naming any other host are refused (default: localhost,"
                            + " loopback and the --host address).")
    java.util.List<String> allowedHosts = new java.util.ArrayList<>();

    @Option(
            names = "--look-back",
            defaultValue = "1h",
            converter = DurationConverter.class,
            description =
                    "Fill the history at start with the estimates and dead letters of this"
                            + " long ago (default: ${DEFAULT-VALUE}).")
    Duration lookBack;

    @Option(
            names = "--windows",
            defaultValue = "30",
            description = "Windows drawn per app version (default: ${DEFAULT-VALUE}).")
    int windows;

    @Option(
            names = "--top",
            defaultValue = "6",
            description = "Methods drawn per app version (default: ${DEFAULT-VALUE}).")
    int top;

    @Option(
            names = "--dead-letter-bucket",
            defaultValue = "1m",
            converter = DurationConverter.class,
            description = "Time bucket of the dead-letter chart (default: ${DEFAULT-VALUE}).")
    Duration deadLetterBucket;

    @Option(
            names = "--flink-rest",
            paramLabel = "URL",
            description =
                    "REST address of the Flink JobManager (HOST:PORT or http(s)://...): the page"
                            + " then shows the reports waiting for a model and the watermark hold"
                            + " of the running jobs (default: none, shown as n/a).")
    String flinkRest;

    @CommandLine.Mixin EstimatesSource source;

    @CommandLine.Mixin KafkaClientProperties kafka;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (port < 0 || port > 65535) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--port must be in [0, 65535], got " + port);
        }
        if (windows < 1 || top < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--windows and --top must be >= 1");
        }
        if (lookBack.isNegative() || deadLetterBucket.toMillis() < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--look-back must be >= 0 and --dead-letter-bucket at least 1 ms");
        }
        source.validate(spec.commandLine());
        URI flink = null;
        if (flinkRest != null) {
            try {
                flink = FlinkRestClient.parseAddress(flinkRest);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "--flink-rest: " + e.getMessage());
            }
        }
        // Checked once, bounded: the page's followers retry a broker that goes away, but a refused
        // login or certificate is not an outage to ride out.
        Properties client = kafka.connect(source.bootstrap, spec.commandLine());
        AtomicBoolean stopped = new AtomicBoolean();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopped.set(true)));
        MonitorHistory history = new MonitorHistory(windows, top, deadLetterBucket.toMillis());
        FlinkJobHealth jobs = flink == null ? null : FlinkJobHealth.feeding(flink, history);
        try (MonitorServer server =
                        new MonitorServer(
                                host,
                                port,
                                java.util.Set.copyOf(allowedHosts),
                                MonitorServer.MAX_STREAMS);
                MonitorFeed feed =
                        new MonitorFeed(
                                client,
                                new MonitorFeed.TopicNames(
                                        source.topic,
                                        Topics.DEAD_LETTERS,
                                        Topics.EDGE_MODELS,
                                        Topics.PROGRAMS),
                                lookBack,
                                source.app,
                                history,
                                server)) {
            System.out.println("fieldprof monitor: open " + server.address());
            String reported = null;
            while (!stopped.get()) {
                feed.pollOnce(Duration.ofMillis(400));
                String error = feed.estimatesError();
                if (error != null && !error.equals(reported)) {
                    // The followers keep retrying: say so once per distinct failure.
                    System.err.println(
                            "fieldprof monitor: cannot read "
                                    + source.topic
                                    + " at "
                                    + source.bootstrap
                                    + " yet ("
                                    + error
                                    + "); retrying");
                }
                reported = error;
            }
        } catch (UncheckedIOException e) {
            throw new CliFailure(e.getMessage(), e);
        } finally {
            if (jobs != null) {
                jobs.close();
            }
        }
        return 0;
    }
}
