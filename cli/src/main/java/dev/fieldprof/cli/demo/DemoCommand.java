package dev.fieldprof.cli.demo;

import dev.fieldprof.cli.options.BudgetOptions;
import dev.fieldprof.cli.options.DurationConverter;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.PrivacyMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof demo}: the whole system on this machine — the sample program analyzed and
 * instrumented, a real KRaft broker and Flink MiniCluster in this JVM, the estimation job,
 * simulated devices, and the live view.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Run fieldprof end to end on this machine and show live estimates.",
            "The sample program (samples/demo-app) is analyzed and instrumented, a Kafka broker",
            "(KRaft) and a Flink MiniCluster start in this JVM, the estimation job runs, and",
            "simulated devices execute the instrumented program and send randomized reports."
        })
public final class DemoCommand implements Callable<Integer> {

    @Option(
            names = "--devices",
            defaultValue = "100",
            description = "Simulated devices (default: ${DEFAULT-VALUE}).")
    int devices;

    @Option(
            names = "--duration",
            converter = DurationConverter.class,
            description = "Stop after this long, e.g. 90s or 5m (default: until Ctrl-C).")
    Duration duration;

    @Option(
            names = "--window",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description = "Estimation window (default: ${DEFAULT-VALUE}).")
    Duration window;

    @Option(
            names = "--commands",
            defaultValue = "200",
            description = "User commands per program run on a device (default: ${DEFAULT-VALUE}).")
    int commands;

    @Option(
            names = "--pause",
            defaultValue = "500ms",
            converter = DurationConverter.class,
            description = "Pause between two runs on one device (default: ${DEFAULT-VALUE}).")
    Duration pause;

    @Option(
            names = "--run-every",
            defaultValue = "1d",
            converter = DurationConverter.class,
            description =
                    "The span of use one program run stands for on a device's clock: a demo"
                            + " compresses weeks of use into minutes, and a device's budget and"
                            + " daily cap see this time pass (default: ${DEFAULT-VALUE}).")
    Duration runEvery;

    @Option(
            names = "--privacy-mode",
            defaultValue = "user-level",
            paramLabel = "user-level|epsilon-t",
            description =
                    "user-level: each report protects a device's whole run at --epsilon;"
                            + " epsilon-t: a report of k = 5|V| events protects any t = 1 of them"
                            + " at --epsilon, the whole report at epsilon*k (default:"
                            + " ${DEFAULT-VALUE}).")
    String privacyMode;

    @Option(
            names = "--epsilon",
            defaultValue = dev.fieldprof.schemas.PrivacyDefaults.EPSILON_TEXT,
            description = "Epsilon of every report: a number or ln(x) (default: ${DEFAULT-VALUE}).")
    String epsilon;

    @CommandLine.Mixin BudgetOptions budget;

    @Option(
            names = "--top",
            defaultValue = "10",
            description = "Methods listed (default: ${DEFAULT-VALUE}).")
    int top;

    @Option(
            names = "--web-port",
            defaultValue = "0",
            description =
                    "Port of the web view, 0 for any free port, -1 for none (default:"
                            + " ${DEFAULT-VALUE}).")
    int webPort;

    @Option(
            names = "--program-jar",
            description = "The sample program jar (default: samples/demo-app's build output).")
    Path programJar;

    @Option(
            names = "--work-dir",
            description =
                    "Where the instrumented program and device state go (default:"
                            + " .fieldprof/demo).")
    Path workDir;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    private DemoPrivacy privacy() {
        PrivacyMode mode =
                switch (privacyMode) {
                    case "user-level" -> PrivacyMode.USER_LEVEL;
                    case "epsilon-t" -> PrivacyMode.EPSILON_T;
                    default ->
                            throw bad(
                                    "--privacy-mode must be user-level or epsilon-t, was '"
                                            + privacyMode
                                            + "'");
                };
        try {
            return new DemoPrivacy(mode, PrivacyParameters.parseEpsilon(epsilon), budget.budget());
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    @Override
    public Integer call() throws Exception {
        if (devices < 1 || devices > 1000) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--devices must be in [1, 1000], got " + devices);
        }
        if (commands < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--commands must be >= 1, got " + commands);
        }
        if (top < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--top must be >= 1, got " + top);
        }
        if (webPort < -1 || webPort > 65535) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--web-port must be -1 or in [0, 65535], got " + webPort);
        }
        DemoPrivacy privacy = privacy();
        Path home = Path.of(System.getProperty("fieldprof.home", "."));
        DemoSettings settings =
                new DemoSettings(
                        programJar != null
                                ? programJar
                                : home.resolve(
                                        "samples/demo-app/target/fieldprof-demo-app-0.1.0-SNAPSHOT.jar"),
                        workDir != null ? workDir : home.resolve(".fieldprof/demo"),
                        devices,
                        0,
                        commands,
                        pause,
                        window,
                        top,
                        webPort,
                        duration,
                        privacy,
                        runEvery);
        try {
            new DemoRun(settings, System.out).run();
        } catch (IllegalArgumentException e) {
            throw new CliFailure(e.getMessage(), e);
        }
        return 0;
    }
}
