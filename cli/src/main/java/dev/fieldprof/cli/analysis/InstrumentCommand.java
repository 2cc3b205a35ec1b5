package dev.fieldprof.cli.analysis;

import dev.fieldprof.bytecode.cfg.BranchDescription;
import dev.fieldprof.bytecode.instrument.DeviceBudget;
import dev.fieldprof.bytecode.instrument.InstrumentationResult;
import dev.fieldprof.bytecode.instrument.JarInstrumenter;
import dev.fieldprof.bytecode.instrument.PathProbeInstrumenter;
import dev.fieldprof.bytecode.jar.InvalidJarException;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.options.BudgetOptions;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.paths.ProbePlanText;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.ProgramModel;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof instrument}: writes a copy of the jar with a method-entry probe per method of
 * the model, calling the client SDK by method id ({@link JarInstrumenter}); with {@code --paths}
 * also path probes ({@link PathProbeInstrumenter}) in the selected methods, in the same output jar.
 * Each class goes through the one {@link dev.fieldprof.bytecode.instrument.ProbeTransform} (path
 * probes on the original bytes, then entry probes) that the device agent applies at class load.
 */
@Command(
        name = "instrument",
        mixinStandardHelpOptions = true,
        description =
                "Instrument a jar for a program model: every method of V calls"
                        + " dev.fieldprof.client.Probes.enter(id) on entry; with --paths the"
                        + " selected methods also call dev.fieldprof.client.PathProbes (path"
                        + " tracing stays off on a device until its user turns it on:"
                        + " -Dfieldprof.paths.enabled=true, or paths.enabled=true in"
                        + " consent.properties in the user's state directory).")
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

    @Option(
            names = "--paths",
            description =
                    "Also insert path probes (enter, branch, exit) for adaptive path profiling.")
    boolean paths;

    @Option(
            names = "--path-methods",
            defaultValue = "all",
            paramLabel = "all|ID,ID...",
            description =
                    "Methods that get path probes: all (default) or method ids of the model. With"
                            + " a subset the paths job needs the jar's branch description"
                            + " (--branches).")
    String pathMethods;

    @CommandLine.Mixin BudgetOptions budget;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    private DeviceBudget deviceBudget() {
        try {
            return budget.budget();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--budget: " + e.getMessage());
        }
    }

    @Override
    public Integer call() {
        if (out.toAbsolutePath().normalize().equals(jar.toAbsolutePath().normalize())) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--out must differ from --jar");
        }
        DeviceBudget devices = deviceBudget();
        ProgramModel programModel;
        try {
            programModel = ProgramModels.read(model);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(e.getMessage());
        }
        Map<String, Integer> traced = paths ? pathMethods(programModel) : Map.of();
        if (!paths && !pathMethods.equals("all")) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--path-methods needs --paths");
        }
        InstrumentationResult result;
        PathProbeInstrumenter pathProbes = paths ? new PathProbeInstrumenter(traced) : null;
        ProbePlanText plan = paths ? ProbePlanText.of(programModel) : null;
        Map<String, byte[]> resources =
                plan == null
                        ? Map.of()
                        : Map.of(
                                ProbePlanText.RESOURCE,
                                plan.toText().getBytes(StandardCharsets.UTF_8));
        try {
            result =
                    new JarInstrumenter(stripSignatures, devices)
                            .instrument(jar, programModel, pathProbes, resources, out);
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
        spec.commandLine().getOut().println("device budget: " + BudgetOptions.describe(devices));
        if (pathProbes != null) {
            printPaths(pathProbes, programModel.getMethods().size(), traced.size());
            if (plan != null) {
                spec.commandLine()
                        .getOut()
                        .println(
                                "probe plan: "
                                        + plan.variantCount()
                                        + " variants in "
                                        + ProbePlanText.RESOURCE
                                        + "; each device path-traces only its variant's methods");
            }
        }
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

    private void printPaths(PathProbeInstrumenter r, int methodCount, int selected) {
        BranchDescription branches = r.branches(methodCount);
        spec.commandLine()
                .getOut()
                .println(
                        String.format(
                                Locale.ROOT,
                                "path probes: %d of %d selected methods (%d probes, %d branch"
                                        + " nodes); branch description in %s",
                                r.cfgs().size(),
                                selected,
                                r.probesInserted(),
                                branches.branchNodeCount(),
                                BranchDescription.RESOURCE));
        boolean subset = !pathMethods.strip().equals("all");
        if (!r.skipped().isEmpty() || subset) {
            spec.commandLine()
                    .getErr()
                    .println(
                            "warning: "
                                    + (r.skipped().isEmpty()
                                            ? "only some methods are traced"
                                            : r.skipped().size()
                                                    + " selected methods got no path probes, e.g. "
                                                    + r.skipped().get(0))
                                    + ": run the paths job with --branches APP:VERSION=<"
                                    + BranchDescription.RESOURCE
                                    + " of the output jar>, the program model's CFGs do not"
                                    + " describe this jar");
        }
    }

    /** Signature → id of the methods selected by {@code --path-methods}. */
    private Map<String, Integer> pathMethods(ProgramModel programModel) {
        int methods = programModel.getMethods().size();
        Set<Integer> wanted = null;
        if (!pathMethods.strip().equals("all")) {
            wanted = new HashSet<>();
            for (String item : pathMethods.split(",")) {
                int id;
                try {
                    id = Integer.parseInt(item.strip());
                } catch (NumberFormatException e) {
                    throw new CommandLine.ParameterException(
                            spec.commandLine(),
                            "--path-methods expects all or method ids, got '" + item + "'");
                }
                if (id < 0 || id >= methods) {
                    throw new CommandLine.ParameterException(
                            spec.commandLine(),
                            "--path-methods: method id "
                                    + id
                                    + " is not in [0, "
                                    + methods
                                    + ") of the model");
                }
                wanted.add(id);
            }
        }
        Map<String, Integer> ids = new HashMap<>();
        for (MethodInfo method : programModel.getMethods()) {
            if (wanted == null || wanted.contains(method.getId())) {
                ids.put(method.getSignature().toString(), method.getId());
            }
        }
        return ids;
    }
}
