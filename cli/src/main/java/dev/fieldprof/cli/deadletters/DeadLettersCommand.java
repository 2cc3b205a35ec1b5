package dev.fieldprof.cli.deadletters;

import picocli.CommandLine.Command;

/** {@code fieldprof dead-letters}: the records the jobs could not use. */
@Command(
        name = "dead-letters",
        mixinStandardHelpOptions = true,
        description = "Act on the dead letters of the frequency job.",
        subcommands = {DeadLettersReplayCommand.class})
public final class DeadLettersCommand implements Runnable {
    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
