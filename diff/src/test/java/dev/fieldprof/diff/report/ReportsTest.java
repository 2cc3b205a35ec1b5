package dev.fieldprof.diff.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.diff.match.ProfileDiff;
import dev.fieldprof.diff.match.ProfileDiffer;
import dev.fieldprof.diff.normalize.ApplicationPackages;
import dev.fieldprof.diff.normalize.PreprocessingOptions;
import dev.fieldprof.diff.normalize.Preprocessor;
import dev.fieldprof.diff.read.CollapsedStacksReader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ReportsTest {
    static ProfileDiff diff;

    @BeforeAll
    static void diffFixtures() throws Exception {
        CollapsedStacksReader reader = new CollapsedStacksReader();
        Path before = Path.of(ReportsTest.class.getResource("/collapsed/before.txt").toURI());
        Path after = Path.of(ReportsTest.class.getResource("/collapsed/after.txt").toURI());
        diff =
                new ProfileDiffer(
                                new Preprocessor(
                                        PreprocessingOptions.defaults()
                                                .withApplicationPackages(
                                                        ApplicationPackages.of(
                                                                List.of("com.acme")))),
                                2)
                        .diff(reader.read(before), reader.read(after));
    }

    @Test
    void tableListsMatchedThenUnmatchedTasks() {
        String table = TextReport.render(diff, "before.txt", "after.txt", 10);

        assertThat(table)
                .contains("alpha = 2: 5 matched nodes, 2 matched tasks")
                .contains("A = before.txt: total 58, 6 nodes, 3 tasks covering 94.8%")
                .contains("B = after.txt: total 112, 6 nodes, 3 tasks covering 97.3%")
                .contains(
                        "   1         40         90        +50  +44.6%  Thread.run > [app].run >"
                                + " com.fasterxml.jackson.databind.ObjectMapper.readValue")
                .contains(
                        "   2         10         12         +2   +1.8%  Thread.run > [app].run >"
                                + " java.util.HashMap.get")
                .contains(
                        "   1          5    8.6%  Thread.run > [app].run >"
                                + " java.io.PrintStream.println")
                .contains(
                        "   1          7    6.3%  Thread.run > [app].run >"
                                + " java.util.concurrent.ConcurrentHashMap.computeIfAbsent");
        assertThat(table.indexOf("Only in A")).isGreaterThan(table.indexOf("HashMap.get"));
    }

    @Test
    void htmlIsOneSelfContainedPage() {
        String html = HtmlReport.render(diff, "before.txt", "<after>.txt", 10);

        assertThat(html).startsWith("<!DOCTYPE html>");
        assertThat(html)
                .doesNotContain("/*DIFF-DATA*/")
                .doesNotContain("http://")
                .doesNotContain("https://");
        assertThat(html).doesNotContainPattern("<script[^>]+src=").doesNotContain("<link");
        assertThat(html).contains("\"nameB\":\"\\u003cafter\\u003e.txt\"");
        assertThat(html)
                .contains("\"method\":\"com.fasterxml.jackson.databind.ObjectMapper.readValue\"");
        assertThat(html).contains("\"matchedCount\":2");
    }
}
