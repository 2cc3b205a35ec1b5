package dev.fieldprof.cli.diff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.cli.browser.HeadlessChromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * Opens the HTML report of {@code fieldprof diff --html} in the system's headless Chromium
 * (Debian's {@code chromium} and {@code chromium-driver}; {@code .ci/run} installs them) and checks
 * the page itself: both trees are drawn, a click on a matched task highlights its node in both
 * trees, and the costs of the highlighted nodes differ by what the table says. Writes
 * target/diff-report.png. Skips, saying why, only when the two binaries are missing; it installs
 * nothing.
 */
class DiffHtmlReportBrowserTest {
    @TempDir Path dir;

    /** Two versions of a small service: parsing got costlier, a cache replaced a file read. */
    static final String BEFORE =
            """
            java/lang/Thread.run;com/acme/Server.handle;com/acme/Server.parse;com/fasterxml/jackson/databind/ObjectMapper.readTree;com/fasterxml/jackson/core/JsonParser.nextToken 40
            java/lang/Thread.run;com/acme/Server.handle;com/acme/Server.parse;com/fasterxml/jackson/databind/ObjectMapper.readTree;com/fasterxml/jackson/databind/node/JsonNodeFactory.objectNode 10
            java/lang/Thread.run;com/acme/Server.handle;com/acme/Store.load;java/nio/file/Files.readAllBytes 25
            java/lang/Thread.run;com/acme/Server.handle;com/acme/Server.render;java/lang/StringBuilder.append 15
            java/util/concurrent/ThreadPoolExecutor.runWorker;com/acme/Metrics.run;java/util/HashMap.merge 6
            """;

    static final String AFTER =
            """
            java/lang/Thread.run;com/acme/Server.handle;com/acme/Server.parse;com/fasterxml/jackson/databind/ObjectMapper.readTree;com/fasterxml/jackson/core/JsonParser.nextToken 95
            java/lang/Thread.run;com/acme/Server.handle;com/acme/Server.parse;com/fasterxml/jackson/databind/ObjectMapper.readTree;com/fasterxml/jackson/databind/node/JsonNodeFactory.objectNode 12
            java/lang/Thread.run;com/acme/Server.handle;com/acme/Cache.get;java/util/concurrent/ConcurrentHashMap.get 3
            java/lang/Thread.run;com/acme/Server.handle;com/acme/Server.render;java/lang/StringBuilder.append 14
            java/util/concurrent/ThreadPoolExecutor.runWorker;com/acme/Metrics.run;java/util/HashMap.merge 6
            """;

    @Test
    void showsBothTreesAndHighlightsAClickedTaskInBoth() throws Exception {
        Path before = Files.writeString(dir.resolve("v1.collapsed"), BEFORE);
        Path after = Files.writeString(dir.resolve("v2.collapsed"), AFTER);
        Path html = dir.resolve("diff.html");
        CliCapture cli = new CliCapture();
        int exit =
                cli.run(
                        "diff",
                        before.toString(),
                        after.toString(),
                        "--app-packages",
                        "com.acme",
                        "--html",
                        html.toString());
        assertThat(exit).as(cli.err()).isZero();

        try (HeadlessChromium browser = HeadlessChromium.start(dir, 1400, 1000)) {
            WebDriver driver = browser.driver();
            driver.get(html.toUri().toString());

            assertThat(driver.findElement(By.id("treeA-title")).getText())
                    .isEqualTo("A: v1.collapsed");
            assertThat(driver.findElement(By.id("treeB-title")).getText())
                    .isEqualTo("B: v2.collapsed");
            assertThat(driver.findElements(By.cssSelector("#treeA .node"))).hasSizeGreaterThan(1);
            assertThat(driver.findElements(By.cssSelector("#treeB .node"))).hasSizeGreaterThan(1);

            List<WebElement> rows = driver.findElements(By.cssSelector("#matched tbody tr"));
            assertThat(rows).isNotEmpty();
            WebElement first = rows.get(0);
            List<WebElement> cells = first.findElements(By.tagName("td"));
            long costA = Long.parseLong(cells.get(1).getText());
            long costB = Long.parseLong(cells.get(2).getText());
            long shown = Long.parseLong(cells.get(3).getText().replace("+", ""));
            assertThat(costA).isEqualTo(50);
            assertThat(costB).isEqualTo(107);
            assertThat(shown).isEqualTo(costB - costA).isEqualTo(57);
            assertThat(cells.get(4).getText()).endsWith("ObjectMapper.readTree");

            first.click();
            assertThat(first.getDomAttribute("class")).contains("selected");
            WebElement focusA = driver.findElement(By.cssSelector("#paneA .node.focus"));
            WebElement focusB = driver.findElement(By.cssSelector("#paneB .node.focus"));
            for (WebElement focus : List.of(focusA, focusB)) {
                assertThat(focus.getDomAttribute("class")).contains("task");
                assertThat(focus.findElement(By.className("name")).getText())
                        .isEqualTo("com.fasterxml.jackson.databind.ObjectMapper.readTree");
                assertThat(focus.isDisplayed()).isTrue();
            }
            // The highlighted nodes' inclusive costs are the table's A and B.
            assertThat(inclusive(focusA)).isEqualTo(costA);
            assertThat(inclusive(focusB)).isEqualTo(costB);
            assertThat(inclusive(focusB) - inclusive(focusA)).isEqualTo(shown);

            browser.screenshot(Path.of("target", "diff-report.png"));
        }
    }

    /** The inclusive cost a tree row shows: " 123 (self 4)". */
    private static long inclusive(WebElement row) {
        String text = row.findElement(By.className("cost")).getText().strip();
        return Long.parseLong(text.substring(0, text.indexOf(' ')));
    }
}
