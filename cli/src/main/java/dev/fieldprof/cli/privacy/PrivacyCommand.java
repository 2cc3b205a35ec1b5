package dev.fieldprof.cli.privacy;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code fieldprof privacy}: the device SDK's privacy tools (exact audit, ledger, planner, the
 * user's path-tracing consent).
 */
@Command(
        name = "privacy",
        mixinStandardHelpOptions = true,
        description =
                "Privacy tools: exact audit of the randomizer, the device ledger, and the planner"
                        + " that predicts accuracy and privacy cost per configuration, and your"
                        + " consent to path tracing.",
        subcommands = {
            PrivacyAuditCommand.class,
            PrivacyLedgerCommand.class,
            PrivacyPlanCommand.class,
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
