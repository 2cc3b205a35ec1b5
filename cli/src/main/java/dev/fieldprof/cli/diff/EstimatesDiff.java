package dev.fieldprof.cli.diff;

import dev.fieldprof.cli.options.KafkaFailure;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.diff.estimates.CallGraph;
import dev.fieldprof.diff.estimates.EstimateDiff;
import dev.fieldprof.diff.estimates.EstimateDiffer;
import dev.fieldprof.diff.estimates.MethodAlignment;
import dev.fieldprof.diff.estimates.ReleaseEstimate;
import dev.fieldprof.diff.report.EstimateTextReport;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.ProgramModel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.KafkaException;

/** The {@code --estimates} mode of {@link DiffCommand}: the release diff of field estimates. */
final class EstimatesDiff {
    private final DiffCommand options;

    EstimatesDiff(DiffCommand options) {
        this.options = options;
    }

    int run() {
        if (!(options.fdr > 0 && options.fdr < 1)) {
            throw options.bad("--fdr must be in (0, 1), was " + options.fdr);
        }
        if (options.html != null) {
            throw options.bad("--html is for profiles; --estimates prints a table");
        }
        List<String> operands = List.of(options.first, options.second);
        String bootstrap = options.kafka == null ? null : options.kafka.servers();
        List<EstimateWindow> windows = new ArrayList<>();
        List<String> versions = new ArrayList<>();
        for (String operand : operands) {
            if (EstimateInputs.isFile(operand)) {
                windows.add(EstimateInputs.readFile(Path.of(operand)));
            } else if (!operand.contains(":")) {
                throw options.bad(
                        "with --estimates, A and B are APP:VERSION or estimate files; '"
                                + operand
                                + "' is neither");
            } else if (bootstrap == null) {
                throw options.bad("reading the estimates of " + operand + " needs --bootstrap");
            } else {
                windows.add(null);
                versions.add(operand);
            }
        }
        List<ProgramModel> models = new ArrayList<>(java.util.Arrays.asList(null, null));
        Properties client =
                bootstrap == null
                        ? null
                        : options.kafkaProperties.connect(bootstrap, options.spec.commandLine());
        try {
            if (!versions.isEmpty()) {
                List<EstimateWindow> read =
                        EstimateInputs.newestCumulative(client, versions, options.configId);
                int next = 0;
                for (int i = 0; i < 2; i++) {
                    if (windows.get(i) == null) {
                        windows.set(i, read.get(next++));
                    }
                }
            }
            if (options.models != null) {
                for (int i = 0; i < 2; i++) {
                    models.set(i, EstimateInputs.readModel(options.models.get(i)));
                }
            } else if (bootstrap != null) {
                models =
                        EstimateInputs.newestModels(
                                client,
                                List.of(
                                        windows.get(0).getAppVersion(),
                                        windows.get(1).getAppVersion()));
            }
        } catch (IllegalStateException | KafkaException e) {
            throw KafkaFailure.of(
                    e, client, "cannot read from " + bootstrap + ": " + e.getMessage());
        }
        PrintWriter out = options.spec.commandLine().getOut();
        if (options.save != null) {
            for (EstimateWindow window : windows) {
                out.println("saved " + EstimateInputs.save(window, options.save));
            }
        }
        for (EstimateWindow window : windows) {
            if (window.getCentralEpsilon() > 0) {
                out.println(centralNote(window));
            }
        }
        ReleaseEstimate[] releases = new ReleaseEstimate[2];
        for (int i = 0; i < 2; i++) {
            try {
                releases[i] = ReleaseEstimate.of(windows.get(i), models.get(i));
            } catch (IllegalArgumentException e) {
                throw new CliFailure(e.getMessage(), e);
            }
        }
        CallGraph[] graphs = null;
        if (models.get(0) != null && models.get(1) != null) {
            graphs = new CallGraph[] {CallGraph.of(models.get(0)), CallGraph.of(models.get(1))};
        } else {
            out.println(
                    "note: without both program models methods are paired by "
                            + (models.get(0) == null && models.get(1) == null
                                    ? "method id (and the signatures of the estimates' top methods)"
                                    : "signature")
                            + " only; --models M1 M2 also pairs renamed and moved methods");
        }
        MethodAlignment.Result alignment =
                MethodAlignment.align(
                        releases[0].signatures(), releases[1].signatures(), graphs, options.alpha);
        EstimateDiff diff =
                new EstimateDiffer(options.fdr).diff(releases[0], releases[1], alignment);
        out.print(EstimateTextReport.render(diff, options.top));
        out.flush();
        return 0;
    }

    /** The shuffled mode's line for an estimate that states a central (ε, δ). */
    static String centralNote(EstimateWindow window) {
        return String.format(
                java.util.Locale.ROOT,
                "note: %s [%s] is shuffled: central eps %.3f, delta %.1e, at its smallest batch of"
                        + " %d reports (holds while the shuffler does not collude)",
                window.getAppVersion(),
                window.getConfigId(),
                window.getCentralEpsilon(),
                window.getCentralDelta(),
                window.getShuffledBatchSizes().isEmpty()
                        ? 0
                        : java.util.Collections.min(window.getShuffledBatchSizes()));
    }
}
