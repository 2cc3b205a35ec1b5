package dev.fieldprof.cli.privacy;

import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.client.ledger.PrivacyBudget;
import dev.fieldprof.client.ledger.PrivacyLedger;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof privacy ledger}: prints a device's privacy ledger from its state directory :
 * reports, events reported, ε per t changed events and the user-level bound, per app version. The
 * logic is {@link PrivacyLedger}.
 */
@Command(
        name = "ledger",
        mixinStandardHelpOptions = true,
        description =
                "Print the privacy ledger of a device: reports, events reported, epsilon per t"
                        + " changed events, user-level bound, daily cap.")
public final class PrivacyLedgerCommand implements Callable<Integer> {

    @Option(
            names = "--state-dir",
            required = true,
            paramLabel = "DIR",
            description = "The device runtime's state directory (setting state.dir).")
    Path stateDir;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (!Files.isDirectory(stateDir)) {
            throw new CliFailure("no state directory at " + stateDir);
        }
        List<PrivacyLedger.Entry> entries;
        try {
            entries = PrivacyLedger.readAll(stateDir);
        } catch (IOException | RuntimeException e) {
            throw new CliFailure(
                    "cannot read the ledger in " + stateDir + ": " + e.getMessage(), e);
        }
        if (entries.isEmpty()) {
            throw new CliFailure("no privacy ledger in " + stateDir);
        }
        PrintWriter out = spec.commandLine().getOut();
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0) {
                out.println();
            }
            entries.get(i).format().forEach(out::println);
        }
        try {
            // One budget per device, over all its app versions.
            PrivacyBudget.read(stateDir)
                    .ifPresent(b -> out.println("\n" + b.describe(java.time.Instant.now())));
        } catch (IOException | RuntimeException e) {
            throw new CliFailure(
                    "cannot read the privacy budget in " + stateDir + ": " + e.getMessage(), e);
        }
        out.flush();
        return 0;
    }
}
