package dev.fieldprof.diff.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.diff.estimates.EstimateDiff;
import dev.fieldprof.diff.estimates.EstimateDiffer;
import dev.fieldprof.diff.estimates.MethodAlignment;
import dev.fieldprof.diff.estimates.ReleaseEstimate;
import dev.fieldprof.diff.match.ProfileDiff;
import dev.fieldprof.diff.match.ProfileDiffer;
import dev.fieldprof.diff.normalize.ApplicationPackages;
import dev.fieldprof.diff.normalize.PreprocessingOptions;
import dev.fieldprof.diff.normalize.Preprocessor;
import dev.fieldprof.diff.read.CollapsedStacksReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Names from a profile or a record reach the terminal tables without their escape sequences. */
class EscapedNamesTest {
    private static final String CLEAR = "\u001b[2J\u001b[H";
    private static final String TITLE = "\u001b]0;owned\u0007";

    @Test
    void profileTableShowsFrameNamesInert(@TempDir Path dir) throws Exception {
        Path before = dir.resolve("before.txt");
        Path after = dir.resolve("after.txt");
        String stack = "java.lang.Thread.run;com.acme.App.run;java.util.Evil" + CLEAR + ".get";
        Files.writeString(before, stack + " 5\n");
        Files.writeString(after, stack + " 9\n");
        CollapsedStacksReader reader = new CollapsedStacksReader();
        ProfileDiff diff =
                new ProfileDiffer(
                                new Preprocessor(
                                        PreprocessingOptions.defaults()
                                                .withApplicationPackages(
                                                        ApplicationPackages.of(
                                                                List.of("com.acme")))),
                                2)
                        .diff(reader.read(before), reader.read(after));

        String table = TextReport.render(diff, "a" + TITLE + ".txt", "b\u202e.txt", 10);

        assertThat(table)
                .doesNotContain("\u001b")
                .doesNotContain("\u0007")
                .doesNotContain("\u202e");
        assertThat(table)
                .contains("A = a.txt: total 5")
                .contains("B = b.txt: total 9")
                .contains("Thread.run > [app].run > java.util.Evil.get");
    }

    @Test
    void estimateTableShowsSignaturesVersionsAndConfigsInert() {
        ReleaseEstimate v1 =
                new ReleaseEstimate(
                        "app:1" + CLEAR,
                        "c" + TITLE,
                        1000,
                        List.of("<a.B: void x" + CLEAR + "()>", "<a.B: void gone\u202e()>"),
                        new double[] {0.6, 0.4},
                        new double[] {0.6, 0.4},
                        0.03);
        ReleaseEstimate v2 =
                new ReleaseEstimate(
                        "app:2",
                        "c",
                        1000,
                        List.of("<a.B: void x" + CLEAR + "()>", "<a.B: void new\u0085()>"),
                        new double[] {0.5, 0.5},
                        new double[] {0.5, 0.5},
                        0.03);
        EstimateDiff diff =
                new EstimateDiffer(0.05)
                        .diff(
                                v1,
                                v2,
                                MethodAlignment.align(v1.signatures(), v2.signatures(), null, 0));

        String table = EstimateTextReport.render(diff, 10);

        assertThat(table)
                .doesNotContain("\u001b")
                .doesNotContain("\u0007")
                .doesNotContain("\u202e")
                .doesNotContain("\u0085");
        assertThat(table)
                .contains("V1 = app:1: config c, 1000 reports")
                .contains("  <a.B: void x()>\n")
                .contains("  <a.B: void gone()>\n")
                .contains("  <a.B: void new()>\n");
    }
}
