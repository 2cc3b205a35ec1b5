package dev.fieldprof.cli.privacy;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code fieldprof privacy}: the privacy tools (exact audit, ledger, planner, amplification by
 * shuffling, the user's path-tracing consent).
 */
@Command(
        name = "privacy",
        mixinStandardHelpOptions = true,
        description =
                "Privacy tools: exact audit of the randomizer, the device ledger, the planner"
                        + " that predicts accuracy and privacy cost per configuration, the"
                        + " central epsilon of a shuffled batch, and your consent to path"
                        + " tracing.",
        subcommands = {
            PrivacyAuditCommand.class,
            PrivacyLedgerCommand.class,
            PrivacyPlanCommand.class,
            PrivacyAmplificationCommand.class,
            PathsConsentCommand.class
        })
public final class PrivacyCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "Missing subcommand: see 'fieldprof privacy --help'");
    }
}
