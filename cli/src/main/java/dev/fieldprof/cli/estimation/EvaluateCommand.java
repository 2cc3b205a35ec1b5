package dev.fieldprof.cli.estimation;

import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.estimation.ConstraintGraph;
import dev.fieldprof.estimation.SignaturePairs;
import dev.fieldprof.estimation.evaluation.AccuracyChart;
import dev.fieldprof.estimation.evaluation.AccuracyStudy;
import dev.fieldprof.estimation.evaluation.DeviceWorkload;
import dev.fieldprof.estimation.evaluation.ModeComparison;
import dev.fieldprof.estimation.evaluation.RecordedWorkload;
import dev.fieldprof.estimation.evaluation.SyntheticWorkload;
import dev.fieldprof.estimation.plan.PlanValidation;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.ProgramModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof evaluate}: the accuracy study (benchmarks/README.md, "Accuracy"); the logic is
 * {@link AccuracyStudy}.
 */
@Command(
        name = "evaluate",
        mixinStandardHelpOptions = true,
        description =
                "Accuracy of the estimates with and without the constraint projection: RE (all and"
                        + " hot methods) and HMC for eps in {ln 9, ln 49} x t in {1, 10, 100, k},"
                        + " simulated devices with k = 5|V| events each.")
public final class EvaluateCommand implements Callable<Integer> {

    static final class Input {
        @ArgGroup(exclusive = false)
        Synthetic synthetic;

        @ArgGroup(exclusive = false)
        Recorded recorded;
    }

    static final class Synthetic {
        @Option(
                names = "--pairs",
                required = true,
                paramLabel = "FILE.csv",
                description = "Pairs 'left<TAB>right' (synthetic heavy-tailed runs obeying them).")
        Path pairs;

        @Option(names = "--size", required = true, paramLabel = "N", description = "|V|.")
        int size;
    }

    static final class Recorded {
        @Option(
                names = "--model",
                required = true,
                paramLabel = "FILE",
                description = "ProgramModel file as written by 'fieldprof analyze'.")
        Path model;

        @Option(
                names = "--runs",
                required = true,
                paramLabel = "FILE.csv",
                description = "Recorded runs: one line of |V| comma-separated entry counts each.")
        Path runs;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Input input;

    @Option(
            names = "--devices",
            defaultValue = "1000",
            description = "Simulated devices " + "(default: ${DEFAULT-VALUE}).")
    int devices;

    @Option(
            names = "--repetitions",
            defaultValue = "5",
            description = "Repetitions averaged " + "(default: ${DEFAULT-VALUE}).")
    int repetitions;

    @Option(names = "--seed", defaultValue = "1", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write the rows as CSV.")
    Path csv;

    @Option(names = "--png", paramLabel = "FILE", description = "Also draw the chart as PNG.")
    Path png;

    @Option(
            names = "--compare-modes",
            description =
                    "Instead of the paper's grid: both privacy modes at equal per-report"
                            + " user-level epsilon (ln 3, ln 9, 4, 8), on the same devices:"
                            + " epsilon-t at k = 1 and k = 5|V| (t = k), user-level; RE of g^ and"
                            + " g* and HMC(0.25) of g* against the devices' mean share profile.")
    boolean compareModes;

    @Option(
            names = "--check-plan",
            description =
                    "Instead of the paper's grid: the privacy planner's predicted RE of g^ and g*"
                            + " against the real randomizer and estimator on these devices, for"
                            + " epsilon-t (ln 9, t = 1 and 10, k = 5|V|) and user-level (ln 3, 4,"
                            + " 8).")
    boolean checkPlan;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (devices < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--devices must be >= 1, got " + devices);
        }
        if (repetitions < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--repetitions must be >= 1, got " + repetitions);
        }
        DeviceWorkload workload = input.synthetic != null ? synthetic() : recorded();
        if (checkPlan) {
            int k = 5 * workload.graph().methods();
            List<PrivacyParameters> configs =
                    List.of(
                            new PrivacyParameters(Math.log(9), 1, k),
                            new PrivacyParameters(Math.log(9), 10, k),
                            new PrivacyParameters(PrivacyMode.USER_LEVEL, Math.log(3), 1, 1),
                            new PrivacyParameters(PrivacyMode.USER_LEVEL, 4, 1, 1),
                            new PrivacyParameters(PrivacyMode.USER_LEVEL, 8, 1, 1));
            System.out.printf(
                    "== %s: |V| = %d, %d devices, %d repetitions: planner vs simulation%n",
                    workload.name(), workload.graph().methods(), devices, repetitions);
            for (PlanValidation.Comparison c :
                    PlanValidation.run(workload, devices, configs, repetitions, seed)) {
                System.out.println(c.describe());
            }
            return 0;
        }
        if (compareModes) {
            double[] epsilons = {Math.log(3), Math.log(9), 4, 8};
            List<ModeComparison.Row> rows =
                    ModeComparison.run(workload, epsilons, devices, repetitions, 0.25, seed);
            System.out.print(
                    ModeComparison.table(
                            workload.name(), workload.graph().methods(), devices, rows));
            return 0;
        }
        AccuracyStudy.Result result;
        try {
            result =
                    AccuracyStudy.run(
                            AccuracyStudy.Options.paperGrid(workload, devices, repetitions, seed));
        } catch (ArithmeticException e) {
            throw new CliFailure(
                    "k = 5|V| does not fit an int for |V| = " + workload.graph().methods());
        }
        System.out.print(AccuracyStudy.table(result));
        if (csv != null) {
            Files.writeString(csv, AccuracyStudy.csv(result));
            System.out.println("wrote " + csv);
        }
        if (png != null) {
            AccuracyChart.write(result, png);
            System.out.println("wrote " + png);
        }
        return 0;
    }

    private DeviceWorkload synthetic() throws IOException {
        Synthetic s = input.synthetic;
        if (!Files.isReadable(s.pairs)) {
            throw new CliFailure("cannot read pairs file " + s.pairs);
        }
        SignaturePairs pairs;
        try {
            pairs = SignaturePairs.read(s.pairs);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(e.getMessage(), e);
        }
        if (s.size < pairs.signatures().size()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--size "
                            + s.size
                            + " is below the "
                            + pairs.signatures().size()
                            + " distinct methods of "
                            + s.pairs);
        }
        String name = s.pairs.getFileName().toString().replaceFirst("\\.csv$", "");
        return new SyntheticWorkload(name, pairs.graph(s.size), seed);
    }

    private DeviceWorkload recorded() throws IOException {
        Recorded r = input.recorded;
        for (Path file : new Path[] {r.model, r.runs}) {
            if (!Files.isReadable(file)) {
                throw new CliFailure("cannot read " + file);
            }
        }
        try {
            ProgramModel model = dev.fieldprof.bytecode.model.ProgramModels.read(r.model);
            ConstraintGraph graph = ConstraintGraph.of(model);
            return new RecordedWorkload(
                    model.getAppVersion(),
                    graph,
                    RecordedWorkload.readRuns(r.runs, graph.methods()));
        } catch (IllegalArgumentException e) {
            throw new CliFailure(e.getMessage(), e);
        }
    }
}
