package dev.fieldprof.cli.keys;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code fieldprof keys}: the analyst's key pair that devices seal shuffled reports to. */
@Command(
        name = "keys",
        mixinStandardHelpOptions = true,
        description =
                "The analyst's key pair of the shuffled mode: devices seal their reports to the"
                        + " public keyset (client setting shuffler.analyst.public.keyset), and"
                        + " only the analyst's frequency job opens them with the private keyset.",
        subcommands = {KeysGenerateCommand.class, KeysRotateCommand.class, KeysShowCommand.class})
public final class KeysCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "Missing subcommand: see 'fieldprof keys --help'");
    }
}
