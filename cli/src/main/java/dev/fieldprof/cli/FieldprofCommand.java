package dev.fieldprof.cli;

import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.cli.support.LogFile;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code fieldprof} command: fronts static analysis, the device SDK's tools, the Flink jobs and
 * the live views. Exit codes: 0 success, 1 failure (one line on stderr; the stack trace only with
 * {@code --verbose}), 2 usage error naming the bad option or value.
 */
@Command(
        name = "fieldprof",
        mixinStandardHelpOptions = true,
        versionProvider = FieldprofVersion.class,
        description = "Privacy-preserving field profiling for deployed Java software.",
        subcommands = {
            // In the order a user meets them: try it, prepare a program, run the jobs, read the
            // results, then the tools behind the guarantees and the figures.
            dev.fieldprof.cli.demo.DemoCommand.class,
            dev.fieldprof.cli.analysis.AnalyzeCommand.class,
            dev.fieldprof.cli.analysis.InstrumentCommand.class,
            dev.fieldprof.cli.analysis.PlanCommand.class,
            dev.fieldprof.cli.device.DeviceJarCommand.class,
            dev.fieldprof.cli.topics.TopicsCommand.class,
            dev.fieldprof.cli.programs.PublishCommand.class,
            dev.fieldprof.cli.jobs.JobsCommand.class,
            dev.fieldprof.cli.monitor.WatchCommand.class,
            dev.fieldprof.cli.monitor.MonitorCommand.class,
            dev.fieldprof.cli.deadletters.DeadLettersCommand.class,
            dev.fieldprof.cli.load.LoadCommand.class,
            dev.fieldprof.cli.privacy.PrivacyCommand.class,
            dev.fieldprof.cli.keys.KeysCommand.class,
            dev.fieldprof.cli.estimation.ProjectCommand.class,
            dev.fieldprof.cli.estimation.EvaluateCommand.class,
            dev.fieldprof.cli.diff.DiffCommand.class,
            CommandLine.HelpCommand.class,
        })
public final class FieldprofCommand implements Runnable {

    @Option(
            names = "--verbose",
            scope = CommandLine.ScopeType.INHERIT,
            description = "Print stack traces of failures.")
    boolean verbose;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "Missing subcommand: see 'fieldprof --help'");
    }

    /** Builds the command line with fieldprof's error handling; tests call this too. */
    public static CommandLine commandLine() {
        FieldprofCommand top = new FieldprofCommand();
        CommandLine cli = new CommandLine(top);
        cli.setExecutionExceptionHandler(
                (exception, commandLine, parseResult) -> {
                    PrintWriter err = commandLine.getErr();
                    err.println("fieldprof: " + oneLine(exception));
                    if (top.verbose) {
                        exception.printStackTrace(err);
                    }
                    err.flush();
                    return CommandLine.ExitCode.SOFTWARE;
                });
        return cli;
    }

    static String oneLine(Throwable exception) {
        if (exception instanceof CliFailure) {
            return exception.getMessage();
        }
        String message = exception.getMessage();
        return exception.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    public static void main(String[] args) {
        // Before anything logs: log4j opens the file by the name this sets.
        LogFile.install(System.err);
        System.exit(commandLine().execute(args));
    }
}
