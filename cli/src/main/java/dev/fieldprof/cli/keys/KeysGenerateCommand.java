package dev.fieldprof.cli.keys;

import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.sealing.AnalystKeys;
import dev.fieldprof.sealing.SealingException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fieldprof keys generate --out DIR}: a new analyst key pair. */
@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        description =
                "Make a new analyst key pair (HPKE, X25519): DIR/analyst-private.json, readable by"
                        + " you only, for the analyst's frequency job, and DIR/analyst-public.json"
                        + " for devices. Prints the key id. Refuses to overwrite existing files"
                        + " (rotate them instead).")
public final class KeysGenerateCommand implements Callable<Integer> {

    @Option(
            names = "--out",
            required = true,
            paramLabel = "DIR",
            description = "Directory the two keyset files are written to.")
    Path out;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        AnalystKeys keys;
        try {
            keys = AnalystKeys.generate();
        } catch (SealingException e) {
            throw new CliFailure(KeyFiles.firstLine(e.getMessage()), e);
        }
        KeyFiles.write(keys, out, false);
        spec.commandLine().getOut().println("generated key " + keys.primaryKeyId());
        spec.commandLine()
                .getOut()
                .println("private keyset " + out.resolve(KeyFiles.PRIVATE) + " (owner only)");
        spec.commandLine().getOut().println("public keyset " + out.resolve(KeyFiles.PUBLIC));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
