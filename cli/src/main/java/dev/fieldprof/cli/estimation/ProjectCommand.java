package dev.fieldprof.cli.estimation;

import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.estimation.ProjectionTrial;
import dev.fieldprof.estimation.SignaturePairs;
import dev.fieldprof.ldp.PrivacyParameters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof project}: times the per-window constraint projection on a real pairs file (issue
 * 5 item 3), with ojAlgo's ADMM side by side; the logic is {@link ProjectionTrial}.
 */
@Command(
        name = "project",
        mixinStandardHelpOptions = true,
        description =
                "Time the constraint projection g* = proj_simplex(iso(g^)) on a pairs file, with"
                        + " ojAlgo's ADMM on the same input.")
public final class ProjectCommand implements Callable<Integer> {

    @Option(
            names = "--pairs",
            required = true,
            paramLabel = "FILE.csv",
            description = "Pairs, one 'left<TAB>right' per line meaning F(left) <= F(right).")
    Path pairs;

    @Option(
            names = "--size",
            required = true,
            paramLabel = "N",
            description = "|V|: at least the distinct methods named; the rest are unconstrained.")
    int size;

    @Option(
            names = "--seed",
            defaultValue = "1",
            description = "Seed of the ground truth and the noise (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--repeat",
            defaultValue = "11",
            description = "Timed solves, each on a fresh estimate (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(
            names = "--epsilon",
            defaultValue = "2.1972245773362196",
            description = "Privacy loss of the simulated reports (default: ln 9).")
    double epsilon;

    @Option(
            names = "--t",
            defaultValue = "10",
            description =
                    "Distance threshold of the simulated reports (default: ${DEFAULT-VALUE}).")
    int t;

    @Option(
            names = "--reports",
            defaultValue = "1000",
            description =
                    "Reports per simulated window, each of k = 5*N events (default: "
                            + "${DEFAULT-VALUE}).")
    long reports;

    @Option(names = "--no-admm", description = "Skip ojAlgo's ADMM.")
    boolean noAdmm;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (repeat < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--repeat must be >= 1, got " + repeat);
        }
        if (reports < 1) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--reports must be >= 1, got " + reports);
        }
        if (size < 1 || size > Integer.MAX_VALUE / 5) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--size must be in [1, " + Integer.MAX_VALUE / 5 + "]");
        }
        PrivacyParameters privacy;
        try {
            privacy = new PrivacyParameters(epsilon, t, 5 * size);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (!Files.isReadable(pairs)) {
            throw new CliFailure("cannot read pairs file " + pairs);
        }
        SignaturePairs read;
        try {
            read = SignaturePairs.read(pairs);
        } catch (IOException e) {
            throw new CliFailure("cannot read " + pairs + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(e.getMessage(), e);
        }
        if (size < read.signatures().size()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--size "
                            + size
                            + " is below the "
                            + read.signatures().size()
                            + " distinct methods of "
                            + pairs);
        }
        ProjectionTrial.Result result =
                ProjectionTrial.run(
                        new ProjectionTrial.Options(
                                read.graph(size), seed, repeat, privacy, reports, !noAdmm));
        String name = pairs.getFileName().toString().replaceFirst("\\.csv$", "");
        System.out.println(ProjectionTrial.header());
        System.out.println(ProjectionTrial.row(name, result));
        return 0;
    }
}
