package dev.fieldprof.cli.jobs;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code fieldprof jobs}: run the Flink jobs here or submit them to a cluster. */
@Command(
        name = "jobs",
        mixinStandardHelpOptions = true,
        description = "Run fieldprof's Flink jobs on this machine or submit them to a cluster.",
        subcommands = {JobsRunCommand.class, JobsSubmitCommand.class, JobsCancelCommand.class})
public final class JobsCommand implements Runnable {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(),
                "Missing subcommand: 'fieldprof jobs run' or 'fieldprof jobs submit'");
    }
}
