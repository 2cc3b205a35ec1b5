package dev.fieldprof.cli.privacy;

import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.options.DurationConverter;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.estimation.ConstraintGraph;
import dev.fieldprof.estimation.plan.PrivacyPlanChart;
import dev.fieldprof.estimation.plan.PrivacyPlanner;
import dev.fieldprof.estimation.plan.ShuffledPlanner;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.ProgramModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof privacy plan}: which privacy parameters to pick for a program, before it ships .
 * For both modes and a grid of ε, t, k and reports per device per day it predicts the accuracy of
 * the window estimates and what each device spends ({@link PrivacyPlanner}), and recommends the
 * configuration that meets a target interval at the smallest user-level ε per day. The shuffled
 * mode ({@link ShuffledPlanner}) gives, per reporting rate, the largest local ε₀ whose shuffled
 * batch of a window's reports meets a target central (ε, δ), and its accuracy.
 */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description = {
            "Predicts, for both privacy modes and a grid of (epsilon, t, k, reports per device per"
                    + " day), the per-method 95%% interval of the window estimates, the smallest"
                    + " share distinguishable from zero, the expected relative error of g^ and of"
                    + " the consistent g*, and the user-level epsilon a device spends per report"
                    + " and per day; recommends the configuration that meets --target-ci at the"
                    + " smallest user-level epsilon per day.",
            "Standard errors are the estimators' own; RE(g*) is simulated through the jobs'"
                    + " projection on the expected profile (--profile).",
            "--modes shuffled: per reporting rate, the largest epsilon0 at which a shuffled batch"
                    + " of a window's reports holds --central-epsilon at --delta, and its accuracy"
                    + " (a device randomizes as in the user-level mode, at epsilon0)."
        })
public final class PrivacyPlanCommand implements Callable<Integer> {
    @Option(
            names = "--model",
            required = true,
            paramLabel = "FILE",
            description = "The program model (fieldprof analyze): |V| and the order pairs.")
    Path model;

    @Option(
            names = "--devices",
            required = true,
            paramLabel = "N",
            description = "Devices that report, >= 1.")
    long devices;

    @Option(
            names = "--window",
            defaultValue = "24h",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "The span one estimate covers (default: ${DEFAULT-VALUE}).")
    Duration window;

    @Option(
            names = "--target-ci",
            paramLabel = "X",
            description =
                    "The 95%% half-width a method's share must have, as a share (0.01 = one"
                            + " percentage point).")
    Double targetHalfWidth;

    @Option(
            names = "--epsilons",
            split = ",",
            defaultValue = "ln(3),ln(9),4,8",
            paramLabel = "E,...",
            description =
                    "Privacy losses per report: numbers or ln(x) (default: ${DEFAULT-VALUE}).")
    List<String> epsilons;

    @Option(
            names = "--t",
            split = ",",
            defaultValue = "1,10,k",
            paramLabel = "T,...",
            description = "epsilon-t thresholds, k for t = k (default: ${DEFAULT-VALUE}).")
    List<String> thresholds;

    @Option(
            names = "--k",
            paramLabel = "K",
            description =
                    "epsilon-t trace length (default: the model's epsilon-t configuration's k,"
                            + " else 5|V|).")
    Integer k;

    @Option(
            names = "--reports-per-day",
            split = ",",
            defaultValue = "1,24",
            paramLabel = "R,...",
            description = "Reports per device per day (default: ${DEFAULT-VALUE}).")
    List<Double> reportsPerDay;

    @Option(
            names = {"--modes", "--mode"},
            split = ",",
            defaultValue = "epsilon-t,user-level",
            paramLabel = "MODE,...",
            description = "epsilon-t, user-level and/or shuffled (default: ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(
            names = "--central-epsilon",
            defaultValue = "1",
            paramLabel = "E",
            description =
                    "shuffled: the central epsilon a window's batch must hold, a number or ln(x)"
                            + " (default: ${DEFAULT-VALUE}).")
    String centralEpsilon;

    @Option(
            names = "--shuffled-windows",
            split = ",",
            converter = DurationConverter.class,
            paramLabel = "DURATION,...",
            description =
                    "shuffled: the windows to plan, each one shuffled batch (default: --window).")
    List<Duration> shuffledWindows;

    @Option(
            names = "--delta",
            defaultValue = "1e-6",
            paramLabel = "D",
            description = "shuffled: the central delta, in (0, 1) (default: ${DEFAULT-VALUE}).")
    double delta;

    @Option(
            names = "--profile",
            defaultValue = "zipf",
            paramLabel = "zipf|FILE",
            description =
                    "The expected shares: zipf (1/rank, made consistent with the pairs), or a file"
                            + " of one share per method id, a line each (default:"
                            + " ${DEFAULT-VALUE}).")
    String profile;

    @Option(
            names = "--repetitions",
            defaultValue = "3",
            description = "Simulated projections per configuration (default: ${DEFAULT-VALUE}).")
    int repetitions;

    @Option(names = "--seed", defaultValue = "1", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--png", paramLabel = "FILE", description = "Also draw accuracy against ε.")
    Path png;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (devices < 1) {
            throw usage("--devices must be >= 1, got " + devices);
        }
        if (targetHalfWidth != null && !(targetHalfWidth > 0 && targetHalfWidth < 1)) {
            throw usage("--target-ci must be in (0, 1), got " + targetHalfWidth);
        }
        if (repetitions < 1) {
            throw usage("--repetitions must be >= 1, got " + repetitions);
        }
        ProgramModel program;
        try {
            program = ProgramModels.read(model);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(e.getMessage());
        }
        ConstraintGraph graph = ConstraintGraph.of(program);
        int methods = graph.methods();
        if (methods < 2) {
            throw new CliFailure("the model has " + methods + " method(s): nothing to estimate");
        }
        int traceLength = k != null ? k : modelK(program).orElse(5 * methods);
        double[] shares = profile(graph);
        double windowDays = window.toMillis() / 86_400_000.0;
        PrivacyPlanner planner =
                new PrivacyPlanner(graph, shares, devices, windowDays, repetitions, seed);
        List<PrivacyPlanner.Prediction> predictions =
                planner.predictAll(candidates(methods, traceLength));
        List<ShuffledPlanner.Plan> shuffled = shuffledPlans(graph, shares);

        PrintWriter out = spec.commandLine().getOut();
        out.printf(
                Locale.ROOT,
                "%s: |V| = %d, %d pairs; %d devices, windows of %s; profile %s%n",
                program.getAppVersion(),
                methods,
                graph.pairs(),
                devices,
                window,
                profile);
        out.println(
                "shares and interval half-widths in % of method entries; eps/day = user-level"
                        + " epsilon a device spends per day");
        out.printf(
                Locale.ROOT,
                "%-10s %7s %5s %6s %6s %10s %9s %9s %8s %8s %10s %10s%n",
                "mode",
                "eps",
                "t",
                "k",
                "rep/d",
                "n/window",
                "+-95%",
                "min g",
                "RE(g^)",
                "RE(g*)",
                "eps/rep",
                "eps/day");
        for (PrivacyPlanner.Prediction p : predictions) {
            out.println(row(p));
        }
        for (ShuffledPlanner.Plan plan : shuffled) {
            out.println(row(plan.prediction(), "shuffled"));
        }
        for (ShuffledPlanner.Plan plan : shuffled) {
            out.println("shuffled: " + describeShuffled(plan));
        }
        if (!shuffled.isEmpty()) {
            out.printf(
                    Locale.ROOT,
                    "shuffled: eps/rep and eps/day are epsilon0, what a report keeps if the"
                            + " shuffler colludes with the analyst; the central epsilon holds only"
                            + " for batches of at least the size shown%n");
        }
        if (targetHalfWidth != null && !shuffled.isEmpty()) {
            Optional<ShuffledPlanner.Plan> best =
                    ShuffledPlanner.recommend(shuffled, targetHalfWidth);
            if (best.isPresent()) {
                out.printf(
                        Locale.ROOT,
                        "recommended in the shuffled mode for +-%.3f%% at 95%%: %s%n",
                        100 * targetHalfWidth,
                        describeShuffled(best.get()));
            } else {
                out.printf(
                        Locale.ROOT,
                        "no shuffled configuration meets +-%.3f%% at 95%% with %d devices at"
                                + " central epsilon %.4f (more devices, more reports per day,"
                                + " longer windows or a larger central epsilon widen the batch"
                                + " or epsilon0)%n",
                        100 * targetHalfWidth,
                        devices,
                        shuffled.get(0).targetEpsilon());
            }
        }
        if (targetHalfWidth != null && !predictions.isEmpty()) {
            Optional<PrivacyPlanner.Prediction> best =
                    PrivacyPlanner.recommend(predictions, targetHalfWidth);
            if (best.isPresent()) {
                out.printf(
                        Locale.ROOT,
                        "recommended for +-%.3f%% at 95%%: %s%n",
                        100 * targetHalfWidth,
                        describe(best.get()));
            } else {
                PrivacyPlanner.Prediction closest =
                        predictions.stream()
                                .min(
                                        java.util.Comparator.comparingDouble(
                                                PrivacyPlanner.Prediction::halfWidth95))
                                .orElseThrow();
                out.printf(
                        Locale.ROOT,
                        "no configuration meets +-%.3f%% at 95%% with %d devices; the closest is"
                                + " %s (more devices, more reports per day or longer windows"
                                + " narrow it)%n",
                        100 * targetHalfWidth,
                        devices,
                        describe(closest));
            }
        }
        if (png != null && !predictions.isEmpty()) {
            PrivacyPlanChart.write(
                    String.format(
                            Locale.ROOT,
                            "%s: |V| = %d, %d devices, windows of %s",
                            program.getAppVersion(),
                            methods,
                            devices,
                            window),
                    predictions,
                    png);
            out.println("chart: " + png);
        }
        out.flush();
        return 0;
    }

    private List<PrivacyPlanner.Candidate> candidates(int methods, int traceLength) {
        Set<PrivacyMode> wanted = new LinkedHashSet<>();
        for (String m : modes) {
            switch (m.trim().toLowerCase(Locale.ROOT)) {
                case "epsilon-t" -> wanted.add(PrivacyMode.EPSILON_T);
                case "user-level" -> wanted.add(PrivacyMode.USER_LEVEL);
                case "shuffled" -> {} // planned apart: see shuffledPlans
                default ->
                        throw usage("--modes: epsilon-t, user-level or shuffled, got '" + m + "'");
            }
        }
        List<PrivacyPlanner.Candidate> out = new ArrayList<>();
        for (double perDay : reportsPerDay) {
            if (!(perDay > 0) || Double.isInfinite(perDay)) {
                throw usage("--reports-per-day must be > 0, got " + perDay);
            }
            for (String text : epsilons) {
                double epsilon;
                try {
                    epsilon = PrivacyParameters.parseEpsilon(text.trim());
                } catch (IllegalArgumentException e) {
                    throw usage("--epsilons: " + e.getMessage());
                }
                if (wanted.contains(PrivacyMode.EPSILON_T)) {
                    for (String t : thresholds) {
                        int threshold = parseThreshold(t, traceLength);
                        out.add(
                                new PrivacyPlanner.Candidate(
                                        parameters(
                                                PrivacyMode.EPSILON_T,
                                                epsilon,
                                                threshold,
                                                traceLength),
                                        perDay));
                    }
                }
                if (wanted.contains(PrivacyMode.USER_LEVEL)) {
                    out.add(
                            new PrivacyPlanner.Candidate(
                                    parameters(PrivacyMode.USER_LEVEL, epsilon, 1, 1), perDay));
                }
            }
        }
        return out;
    }

    private List<ShuffledPlanner.Plan> shuffledPlans(ConstraintGraph graph, double[] shares) {
        boolean wanted = modes.stream().anyMatch(m -> m.trim().equalsIgnoreCase("shuffled"));
        if (!wanted) {
            return List.of();
        }
        double target;
        try {
            target = PrivacyParameters.parseEpsilon(centralEpsilon);
        } catch (IllegalArgumentException e) {
            throw usage("--central-epsilon: " + e.getMessage());
        }
        if (!(target > 0) || Double.isInfinite(target)) {
            throw usage("--central-epsilon must be finite and > 0, got " + centralEpsilon);
        }
        if (!(delta > 0 && delta < 1)) {
            throw usage("--delta must be in (0, 1), got " + delta);
        }
        List<ShuffledPlanner.Plan> plans = new ArrayList<>();
        for (Duration span : shuffledWindows == null ? List.of(window) : shuffledWindows) {
            if (span.isNegative() || span.isZero()) {
                throw usage("--shuffled-windows must be > 0, got " + span);
            }
            PrivacyPlanner planner =
                    new PrivacyPlanner(
                            graph,
                            shares,
                            devices,
                            span.toMillis() / 86_400_000.0,
                            repetitions,
                            seed);
            for (double perDay : reportsPerDay) {
                if (!(perDay > 0) || Double.isInfinite(perDay)) {
                    throw usage("--reports-per-day must be > 0, got " + perDay);
                }
                double perWindow = planner.reportsPerWindow(perDay);
                if (perWindow < 1) {
                    throw usage(
                            String.format(
                                    Locale.ROOT,
                                    "shuffled: %d devices at %s report(s) a day fill a window of"
                                            + " %s with %.3g reports; a batch needs at least one",
                                    devices,
                                    number(perDay),
                                    span,
                                    perWindow));
                }
                plans.add(ShuffledPlanner.plan(planner, perDay, target, delta));
            }
        }
        return plans;
    }

    private PrivacyParameters parameters(PrivacyMode mode, double epsilon, int t, int k) {
        try {
            return new PrivacyParameters(mode, epsilon, t, k);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private int parseThreshold(String text, int traceLength) {
        String t = text.trim();
        if (t.equalsIgnoreCase("k")) {
            return traceLength;
        }
        try {
            int value = Integer.parseInt(t);
            if (value < 1 || value > traceLength) {
                throw usage("--t must be in [1, k = " + traceLength + "], got " + value);
            }
            return value;
        } catch (NumberFormatException e) {
            throw usage("--t: a number or k, got '" + t + "'");
        }
    }

    private static Optional<Integer> modelK(ProgramModel program) {
        for (PrivacyConfig config : program.getPrivacyConfigs()) {
            if (config.getMode() == PrivacyMode.EPSILON_T) {
                return Optional.of(config.getK());
            }
        }
        return Optional.empty();
    }

    private double[] profile(ConstraintGraph graph) throws IOException {
        if (profile.equalsIgnoreCase("zipf")) {
            return PrivacyPlanner.zipfProfile(graph);
        }
        Path file = Path.of(profile);
        if (!Files.isRegularFile(file)) {
            throw usage("--profile: zipf or a file, and there is no file " + file);
        }
        List<String> lines =
                Files.readAllLines(file).stream()
                        .map(String::trim)
                        .filter(l -> !l.isEmpty())
                        .toList();
        if (lines.size() != graph.methods()) {
            throw usage(
                    "--profile "
                            + file
                            + " has "
                            + lines.size()
                            + " shares but the model "
                            + graph.methods()
                            + " methods");
        }
        double[] shares = new double[lines.size()];
        double total = 0;
        for (int v = 0; v < shares.length; v++) {
            try {
                shares[v] = Double.parseDouble(lines.get(v));
            } catch (NumberFormatException e) {
                throw usage("--profile " + file + " line " + (v + 1) + " is not a number");
            }
            if (!(shares[v] >= 0) || Double.isInfinite(shares[v])) {
                throw usage("--profile " + file + " line " + (v + 1) + " is not a share >= 0");
            }
            total += shares[v];
        }
        if (!(total > 0)) {
            throw usage("--profile " + file + " sums to 0");
        }
        for (int v = 0; v < shares.length; v++) {
            shares[v] /= total; // counts or shares alike
        }
        return shares;
    }

    private static String row(PrivacyPlanner.Prediction p) {
        return row(
                p,
                p.candidate().privacy().mode() == PrivacyMode.USER_LEVEL
                        ? "user-level"
                        : "epsilon-t");
    }

    private static String row(PrivacyPlanner.Prediction p, String mode) {
        PrivacyParameters privacy = p.candidate().privacy();
        boolean userLevel = privacy.mode() == PrivacyMode.USER_LEVEL;
        return String.format(
                Locale.ROOT,
                "%-10s %7.4f %5s %6s %6s %10.0f %9.4f %9.4f %8.4f %8.4f %10.4g %10.4g",
                mode,
                privacy.epsilon(),
                userLevel ? "-" : Integer.toString(privacy.t()),
                userLevel ? "1" : Integer.toString(privacy.k()),
                number(p.candidate().reportsPerDay()),
                p.reportsPerWindow(),
                100 * p.halfWidth95(),
                100 * p.smallestShare(),
                p.relativeErrorRaw(),
                p.relativeErrorProjected(),
                p.candidate().userLevelEpsilonPerReport(),
                p.candidate().userLevelEpsilonPerDay());
    }

    private static String describe(PrivacyPlanner.Prediction p) {
        PrivacyParameters privacy = p.candidate().privacy();
        String config =
                privacy.mode() == PrivacyMode.USER_LEVEL
                        ? String.format(
                                Locale.ROOT,
                                "user-level, epsilon %.4f (analyze --privacy-mode user-level"
                                        + " --epsilon %.4f)",
                                privacy.epsilon(),
                                privacy.epsilon())
                        : String.format(
                                Locale.ROOT,
                                "epsilon-t, epsilon %.4f, t = %d, k = %d (analyze --epsilon %.4f"
                                        + " --t %d --k %d)",
                                privacy.epsilon(),
                                privacy.t(),
                                privacy.k(),
                                privacy.epsilon(),
                                privacy.t(),
                                privacy.k());
        return String.format(
                Locale.ROOT,
                "%s, %s report(s) per device per day: +-%.4f%%, RE(g*) %.4f, user-level epsilon"
                        + " %.4g per day",
                config,
                number(p.candidate().reportsPerDay()),
                100 * p.halfWidth95(),
                p.relativeErrorProjected(),
                p.candidate().userLevelEpsilonPerDay());
    }

    private String describeShuffled(ShuffledPlanner.Plan plan) {
        PrivacyPlanner.Prediction p = plan.prediction();
        return String.format(
                Locale.ROOT,
                "epsilon0 %.4f, %s report(s) per device per day, windows of %s: batches of at"
                        + " least %d reports (%s reports per device in each) hold central epsilon"
                        + " %.4f at delta %s (target %.4f); +-%.4f%%, RE(g*) %.4f",
                plan.epsilon0(),
                number(p.candidate().reportsPerDay()),
                Duration.ofMillis(Math.round(plan.windowDays() * 86_400_000.0)),
                plan.batchSize(),
                String.format(Locale.ROOT, "%.3g", plan.reportsPerDevicePerBatch()),
                plan.centralEpsilon(),
                java.math.BigDecimal.valueOf(plan.delta()).stripTrailingZeros(),
                plan.targetEpsilon(),
                100 * p.halfWidth95(),
                p.relativeErrorProjected());
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
