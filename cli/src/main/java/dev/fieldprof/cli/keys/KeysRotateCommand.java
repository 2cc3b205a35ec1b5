package dev.fieldprof.cli.keys;

import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.sealing.AnalystKeys;
import dev.fieldprof.sealing.SealingException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fieldprof keys rotate --private FILE}: a new primary key, the old ones kept. */
@Command(
        name = "rotate",
        mixinStandardHelpOptions = true,
        description =
                "Add a new primary key to the analyst's private keyset and rewrite both files"
                        + " (analyst-public.json beside it): devices given the new public keyset"
                        + " seal to the new key, and reports sealed to the old keys still open.")
public final class KeysRotateCommand implements Callable<Integer> {

    @Option(
            names = "--private",
            required = true,
            paramLabel = "FILE",
            description = "The private keyset file (analyst-private.json).")
    Path privateKeyset;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (!privateKeyset.getFileName().toString().equals(KeyFiles.PRIVATE)) {
            throw new CliFailure(
                    privateKeyset
                            + ": rotate the file named "
                            + KeyFiles.PRIVATE
                            + " (its public keyset is written beside it)");
        }
        Path dir = privateKeyset.toAbsolutePath().getParent();
        AnalystKeys keys = KeyFiles.readPrivate(privateKeyset);
        AnalystKeys rotated;
        try {
            rotated = keys.rotate();
        } catch (SealingException e) {
            throw new CliFailure(KeyFiles.firstLine(e.getMessage()), e);
        }
        KeyFiles.write(rotated, dir, true);
        spec.commandLine()
                .getOut()
                .println(
                        "rotated: new primary key "
                                + rotated.primaryKeyId()
                                + ", "
                                + rotated.size()
                                + " keys (was "
                                + keys.primaryKeyId()
                                + ")");
        spec.commandLine()
                .getOut()
                .println("public keyset " + dir.resolve(KeyFiles.PUBLIC) + ": give it to devices");
        spec.commandLine().getOut().flush();
        return 0;
    }
}
