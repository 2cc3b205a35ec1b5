package dev.fieldprof.cli.analysis;

import dev.fieldprof.analysis.AnalysisReport;
import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.AnalysisResult;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.analysis.World;
import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.jar.InvalidJarException;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.schemas.ProgramModel;
import java.io.File;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof analyze}: builds the program model of a jar (V, the order pairs F(m) <= F(m')
 * that hold in every run, static-analysis/README.md; the privacy configuration) with {@link
 * ProgramAnalyzer} and writes it as a model file.
 */
@Command(
        name = "analyze",
        mixinStandardHelpOptions = true,
        description =
                "Analyse a jar into a program model: its methods V, the order pairs"
                        + " F(m) <= F(m') of Algorithm 1, and the privacy configuration.")
public final class AnalyzeCommand implements Callable<Integer> {
    /** The shuffled mode's minimum batch size unless --min-batch-size says otherwise. */
    static final int DEFAULT_MIN_BATCH_SIZE = 1000;

    /** The shuffled mode's central delta unless --delta says otherwise. */
    static final double DEFAULT_DELTA = 1e-6;

    @Option(names = "--jar", required = true, paramLabel = "APP.jar", description = "The jar.")
    Path jar;

    @Option(
            names = "--classpath",
            paramLabel = "A.jar:B.jar",
            description = "Dependencies of the jar, separated by the platform path separator.")
    String classpath;

    @Option(
            names = "--app-packages",
            paramLabel = "p,q",
            description = "Package prefixes of the application classes (default: every class).")
    String appPackages;

    @Option(
            names = "--app",
            required = true,
            paramLabel = "APP:VERSION",
            description = "App and version the model is published under.")
    String app;

    @Option(
            names = "--world",
            defaultValue = "auto",
            paramLabel = "auto|application|library",
            description =
                    "Who else calls the jar: a library's public API has outside callers; auto ="
                            + " application if the manifest names a Main-Class (default:"
                            + " ${DEFAULT-VALUE}).")
    String world;

    @Option(
            names = "--epsilon",
            defaultValue = "2.1972245773362196",
            description = "Privacy loss epsilon > 0 (default: ln 9 = ${DEFAULT-VALUE}).")
    double epsilon;

    @Option(names = "--t", description = "epsilon-t mode: distance threshold t >= 1 (default: 1).")
    Integer t;

    @Option(names = "--k", description = "epsilon-t mode: trace length k >= 1 (default: 5 * |V|).")
    Integer k;

    @Option(
            names = "--privacy-mode",
            defaultValue = "user-level",
            paramLabel = "user-level|epsilon-t|shuffled",
            description =
                    "user-level: a report of one sampled event protects the device's whole epoch"
                            + " at --epsilon (k = t = 1); epsilon-t (the paper's mode): a report of"
                            + " k events protects any t changed events at --epsilon, its whole"
                            + " content at epsilon*k/t; shuffled: user-level reports at --epsilon"
                            + " (epsilon0), sealed to the analyst and released by a shuffler in"
                            + " batches of at least --min-batch-size (default: ${DEFAULT-VALUE}).")
    String privacyMode;

    @Option(
            names = "--min-batch-size",
            paramLabel = "N",
            description =
                    "shuffled mode: the fewest reports in a batch the analyst may open, >= 2"
                            + " (default: 1000).")
    Integer minBatchSize;

    @Option(
            names = "--delta",
            paramLabel = "D",
            description =
                    "shuffled mode: the delta of the central (epsilon, delta) the estimates state,"
                            + " in (0, 1) (default: 1e-6).")
    Double delta;

    @Option(
            names = "--config-id",
            defaultValue = "default",
            description = "Privacy configuration id (default: ${DEFAULT-VALUE}).")
    String configId;

    @Option(names = "--out", required = true, paramLabel = "MODEL", description = "Model file.")
    Path out;

    @Option(names = "--stats-json", paramLabel = "FILE", description = "Also write stats as JSON.")
    Path statsJson;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        int colon = app.indexOf(':');
        if (colon <= 0 || colon == app.length() - 1) {
            throw bad("--app must be APP:VERSION, was '" + app + "'");
        }
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw bad("--epsilon must be > 0 and finite, was " + epsilon);
        }
        if (t != null && t < 1) {
            throw bad("--t must be >= 1, was " + t);
        }
        if (k != null && k < 1) {
            throw bad("--k must be >= 1, was " + k);
        }
        if (configId.isBlank()) {
            throw bad("--config-id must not be blank");
        }
        boolean shuffled = privacyMode.equals("shuffled");
        boolean userLevel = shuffled || privacyMode.equals("user-level");
        if (!userLevel && !privacyMode.equals("epsilon-t")) {
            throw bad(
                    "--privacy-mode must be user-level, epsilon-t or shuffled, was '"
                            + privacyMode
                            + "'");
        }
        if (userLevel && (t != null || k != null)) {
            throw bad(
                    "--t and --k shape the reports of --privacy-mode epsilon-t; the "
                            + (shuffled ? "shuffled mode" : "user-level mode (the default)")
                            + " reports one event");
        }
        if (!shuffled && (minBatchSize != null || delta != null)) {
            throw bad("--min-batch-size and --delta are terms of --privacy-mode shuffled");
        }
        int batch = minBatchSize == null ? DEFAULT_MIN_BATCH_SIZE : minBatchSize;
        double centralDelta = delta == null ? DEFAULT_DELTA : delta;
        if (batch < 2) {
            throw bad("--min-batch-size must be >= 2, was " + batch);
        }
        if (!(centralDelta > 0 && centralDelta < 1)) {
            throw bad("--delta must be in (0, 1), was " + centralDelta);
        }
        World chosen;
        try {
            chosen = World.valueOf(world.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw bad("--world must be auto, application or library, was '" + world + "'");
        }
        List<Path> dependencies = new ArrayList<>();
        if (classpath != null) {
            for (String entry :
                    classpath.split(java.util.regex.Pattern.quote(File.pathSeparator))) {
                if (!entry.isBlank()) {
                    dependencies.add(Paths.get(entry.trim()));
                }
            }
        }
        AnalysisRequest request =
                AnalysisRequest.of(jar, app)
                        .withClasspath(dependencies)
                        .withAppPackages(AppPackages.parse(appPackages))
                        .withWorld(chosen)
                        .withPrivacy(configId, epsilon, t == null ? 1 : t, k);
        AnalysisResult result;
        try {
            result = ProgramAnalyzer.analyze(request);
            ProgramModel model =
                    shuffled
                            ? ProgramModels.shuffled(result.model(), batch, centralDelta)
                            : userLevel ? ProgramModels.userLevel(result.model()) : result.model();
            ProgramModels.write(model, out);
            if (statsJson != null) {
                AnalysisReport.writeStatsJson(result, statsJson);
            }
        } catch (InvalidJarException | UncheckedIOException e) {
            throw new CliFailure(e.getMessage());
        }
        spec.commandLine().getOut().println(AnalysisReport.summary(result));
        spec.commandLine().getOut().println(AnalysisReport.phaseTable(result));
        for (var skipped : result.skipped().entrySet()) {
            spec.commandLine()
                    .getErr()
                    .println("skipped " + skipped.getKey() + ": " + skipped.getValue());
        }
        if (!result.missingClasses().isEmpty()) {
            List<String> missing = result.missingClasses();
            spec.commandLine()
                    .getErr()
                    .println(
                            missing.size()
                                    + " referenced classes are in neither the jar nor --classpath"
                                    + " (calls into them count as unknown): "
                                    + String.join(
                                            ", ", missing.subList(0, Math.min(5, missing.size())))
                                    + (missing.size() > 5 ? ", ..." : ""));
        }
        spec.commandLine().getOut().println("model written to " + out);
        spec.commandLine().getOut().flush();
        spec.commandLine().getErr().flush();
        return 0;
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
