package dev.fieldprof.cli.analysis;

import dev.fieldprof.analysis.instrument.InstrumentationResult;
import dev.fieldprof.analysis.instrument.JarInstrumenter;
import dev.fieldprof.analysis.jar.InvalidJarException;
import dev.fieldprof.analysis.model.ProgramModels;
import dev.fieldprof.cli.CliFailure;
import dev.fieldprof.schemas.ProgramModel;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof instrument}: writes a copy of the jar with a method-entry probe per method of
 * the model, calling the client SDK by method id ({@link JarInstrumenter}).
 */
@Command(
        name = "instrument",
        mixinStandardHelpOptions = true,
        description =
                "Instrument a jar for a program model: every method of V calls"
                        + " dev.fieldprof.client.Probes.enter(id) on entry.")
public final class InstrumentCommand implements Callable<Integer> {

    @Option(names = "--jar", required = true, paramLabel = "APP.jar", description = "The jar.")
    Path jar;

    @Option(
            names = "--model",
            required = true,
            paramLabel = "MODEL",
            description = "Model file written by 'fieldprof analyze' for this jar.")
    Path model;

    @Option(names = "--out", required = true, paramLabel = "OUT.jar", description = "Output jar.")
    Path out;

    @Option(
            names = "--strip-signatures",
            description = "Remove the signature of a signed jar instead of refusing it.")
    boolean stripSignatures;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (out.toAbsolutePath().normalize().equals(jar.toAbsolutePath().normalize())) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--out must differ from --jar");
        }
        ProgramModel programModel;
        try {
            programModel = ProgramModels.read(model);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(e.getMessage());
        }
        InstrumentationResult result;
        try {
            result = new JarInstrumenter(stripSignatures).instrument(jar, programModel, out);
        } catch (InvalidJarException | UncheckedIOException | IllegalArgumentException e) {
            throw new CliFailure(e.getMessage());
        }
        int methods = programModel.getMethods().size();
        if (methods > 0 && result.modelMethodsNotFound().size() == methods) {
            throw new CliFailure(
                    "none of the model's "
                            + methods
                            + " methods is in "
                            + jar
                            + ": the model was made for another jar");
        }
        spec.commandLine()
                .getOut()
                .println(
                        String.format(
                                Locale.ROOT,
                                "instrumented %d classes (%d probes), copied %d classes and %d"
                                        + " resources into %s in %.2f s (%.0f classes/s)",
                                result.classesInstrumented(),
                                result.probesInserted(),
                                result.classesCopied(),
                                result.resourcesCopied(),
                                out,
                                result.seconds(),
                                result.classesPerSecond()));
        if (!result.modelMethodsNotFound().isEmpty()) {
            spec.commandLine()
                    .getErr()
                    .println(
                            "warning: "
                                    + result.modelMethodsNotFound().size()
                                    + " model methods not found in the jar, e.g. "
                                    + result.modelMethodsNotFound().get(0));
        }
        if (!result.strippedSignatureEntries().isEmpty()) {
            spec.commandLine()
                    .getErr()
                    .println("removed signature files " + result.strippedSignatureEntries());
        }
        spec.commandLine().getOut().flush();
        spec.commandLine().getErr().flush();
        return 0;
    }
}
