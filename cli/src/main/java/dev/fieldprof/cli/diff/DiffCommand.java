package dev.fieldprof.cli.diff;

import dev.fieldprof.cli.options.KafkaBootstrap;
import dev.fieldprof.cli.options.KafkaClientProperties;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.match.ProfileDiff;
import dev.fieldprof.diff.match.ProfileDiffer;
import dev.fieldprof.diff.normalize.ApplicationPackages;
import dev.fieldprof.diff.normalize.ClassHierarchy;
import dev.fieldprof.diff.normalize.InferredApplication;
import dev.fieldprof.diff.normalize.PreprocessingOptions;
import dev.fieldprof.diff.normalize.Preprocessor;
import dev.fieldprof.diff.read.JfrReader;
import dev.fieldprof.diff.read.ProfileReader;
import dev.fieldprof.diff.read.ProfileReaders;
import dev.fieldprof.diff.report.HtmlReport;
import dev.fieldprof.diff.report.TextReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fieldprof diff A B}: differential profiling of two profiles (a JFR file or async-profiler
 * collapsed stacks each, told apart by extension and content) at the level of tasks, matched
 * approximately as in DiffProf (docs/references.md; docs/diff.md); prints a table and optionally
 * writes an HTML report. Without {@code --app-packages} the application is inferred from the
 * profiles ({@link InferredApplication}), and one line on stderr names the packages taken.
 *
 * <p>{@code fieldprof diff --estimates V1 V2}: the release diff of field estimates. Each operand is
 * an app version ({@code app:version}, read as its newest cumulative estimate from the estimates
 * topic at {@code --bootstrap}) or a saved estimate file ({@code --save DIR} writes them). Methods
 * are paired by signature, and with both program models (from {@code --models M1 M2}, or from the
 * programs topic) across renames and moves by aligning the two call graphs; per method the
 * difference of shares with its 95% interval and p-value, Benjamini–Yekutieli at {@code --fdr}.
 */
@Command(
        name = "diff",
        mixinStandardHelpOptions = true,
        description =
                "Compare two profiles (JFR .jfr files or async-profiler collapsed stacks) task by"
                        + " task: framework calls made by application code, matched across the"
                        + " versions even when call paths differ by up to --alpha frames.")
public final class DiffCommand implements Callable<Integer> {

    @Parameters(
            index = "0",
            paramLabel = "A",
            description = "The baseline profile (with --estimates: APP:VERSION or estimate file).")
    String first;

    @Parameters(
            index = "1",
            paramLabel = "B",
            description = "The profile compared with A (with --estimates: the newer release).")
    String second;

    @Option(
            names = "--estimates",
            description =
                    "Compare the field estimates of two releases instead: A and B are APP:VERSION"
                            + " (newest cumulative estimate on the estimates topic, needs"
                            + " --bootstrap) or estimate files written by --save.")
    boolean estimates;

    @CommandLine.ArgGroup(exclusive = false, multiplicity = "0..1")
    KafkaBootstrap kafka;

    @CommandLine.Mixin KafkaClientProperties kafkaProperties;

    @Option(
            names = "--config",
            paramLabel = "ID",
            description =
                    "With --estimates: the privacy configuration to compare (needed when a"
                            + " version has estimates of several).")
    String configId;

    @Option(
            names = "--fdr",
            defaultValue = "0.05",
            paramLabel = "Q",
            description =
                    "With --estimates: false discovery rate of the Benjamini-Yekutieli procedure"
                            + " over the compared methods (default: ${DEFAULT-VALUE}).")
    double fdr;

    @Option(
            names = "--models",
            arity = "2",
            paramLabel = "MODEL",
            description =
                    "With --estimates: the program model files of A and B (default: from the"
                            + " programs topic with --bootstrap); their signatures name the"
                            + " methods and their call graphs pair renamed and moved methods.")
    List<Path> models;

    @Option(
            names = "--save",
            paramLabel = "DIR",
            description =
                    "With --estimates: also save the two estimates as files APP_VERSION.estimate"
                            + " in DIR, to compare them later without the broker.")
    Path save;

    @Option(
            names = "--alpha",
            defaultValue = "2",
            paramLabel = "N",
            description =
                    "Call paths of matched tasks may differ by up to N frames (0 = exact paths;"
                            + " default: ${DEFAULT-VALUE}).")
    int alpha;

    @Option(
            names = "--app-packages",
            paramLabel = "p,q",
            split = ",",
            description =
                    "Package prefixes of the application; their internal calls are merged into"
                            + " the callback the framework called (default: inferred from the"
                            + " profiles: the main class's package, cut to three segments, or"
                            + " everything outside the JDK; printed on stderr).")
    List<String> appPackages;

    @Option(
            names = "--top",
            defaultValue = "20",
            paramLabel = "N",
            description = "Rows per table (default: ${DEFAULT-VALUE}).")
    int top;

    @Option(
            names = "--html",
            paramLabel = "FILE",
            description = "Also write a self-contained HTML report with both trees.")
    Path html;

    @Option(
            names = "--jfr-cost",
            defaultValue = "cpu",
            paramLabel = "cpu|alloc",
            description =
                    "Cost in JFR files: execution samples (cpu) or allocated bytes of allocation"
                            + " samples (alloc) (default: ${DEFAULT-VALUE}).")
    String jfrCost;

    @Option(
            names = "--hierarchy",
            paramLabel = "FILE",
            description =
                    "Lines 'subclass superclass': a call of an overridden method from its override"
                            + " is merged, and the two match at no cost.")
    Path hierarchy;

    @Option(
            names = "--keep-callback-classes",
            description =
                    "Keep the class names of application callbacks (by default a callback is"
                            + " named by its method only, so renamed classes still match).")
    boolean keepCallbackClasses;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (alpha < 0 || alpha > 100) {
            throw bad("--alpha must be in [0, 100], was " + alpha);
        }
        if (top < 1) {
            throw bad("--top must be >= 1, was " + top);
        }
        if (estimates) {
            return new EstimatesDiff(this).run();
        }
        if (kafka != null
                || kafkaProperties.file() != null
                || configId != null
                || models != null
                || save != null) {
            throw bad(
                    "--bootstrap, --kafka-properties, --config, --models and --save need"
                            + " --estimates");
        }
        JfrReader.Cost cost =
                switch (jfrCost.trim().toLowerCase(Locale.ROOT)) {
                    case "cpu" -> JfrReader.Cost.EXECUTION_SAMPLES;
                    case "alloc" -> JfrReader.Cost.ALLOCATION_WEIGHT;
                    default -> throw bad("--jfr-cost must be cpu or alloc, was '" + jfrCost + "'");
                };
        ApplicationPackages named = null;
        if (appPackages != null) {
            List<String> names = new ArrayList<>();
            for (String p : appPackages) {
                if (!p.isBlank()) {
                    names.add(p.strip());
                }
            }
            if (names.isEmpty()) {
                throw bad("--app-packages must name at least one package");
            }
            named = ApplicationPackages.of(names);
        }
        PreprocessingOptions options =
                PreprocessingOptions.defaults().withDropCallbackClass(!keepCallbackClasses);
        try {
            if (hierarchy != null) {
                options = options.withHierarchy(ClassHierarchy.read(hierarchy));
            }
            ProfileReaders readers =
                    new ProfileReaders(
                            List.of(
                                    new JfrReader(cost),
                                    new dev.fieldprof.diff.read.CollapsedStacksReader()));
            Profile a = read(readers, Path.of(first));
            Profile b = read(readers, Path.of(second));
            String nameA = Path.of(first).getFileName().toString();
            String nameB = Path.of(second).getFileName().toString();
            if (named != null) {
                options = options.withApplicationPackages(named);
            } else {
                Map<String, Optional<InferredApplication>> shown = new LinkedHashMap<>();
                // keyed by the operands as given: two files of one name in two directories differ
                shown.put(first, a.reader().inferApplication(a.file(), a.tree()));
                shown.putIfAbsent(second, b.reader().inferApplication(b.file(), b.tree()));
                InferredApplication.Choice choice = InferredApplication.choose(shown);
                spec.commandLine().getErr().println(choice.summary());
                spec.commandLine().getErr().flush();
                options = options.withApplicationPackages(choice.packages());
            }
            ProfileDiff diff =
                    new ProfileDiffer(new Preprocessor(options), alpha).diff(a.tree(), b.tree());
            spec.commandLine().getOut().print(TextReport.render(diff, nameA, nameB, top));
            if (html != null) {
                Files.writeString(
                        html, HtmlReport.render(diff, nameA, nameB, top), StandardCharsets.UTF_8);
                spec.commandLine().getOut().println("\nHTML report written to " + html);
            }
        } catch (NoSuchFileException e) {
            throw new CliFailure("no such file: " + e.getFile());
        } catch (IOException e) {
            throw new CliFailure(e.getMessage(), e);
        }
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** A profile as read, with the reader that took it (which can infer the application). */
    private record Profile(Path file, ProfileReader reader, CallingContextTree tree) {}

    private static Profile read(ProfileReaders readers, Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new CliFailure("no such file: " + file);
        }
        ProfileReader reader = readers.forFile(file);
        CallingContextTree tree = reader.read(file);
        if (tree.totalCost() == 0) {
            throw new CliFailure(file + ": no samples found (read as " + reader.format() + ")");
        }
        return new Profile(file, reader, tree);
    }

    CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
