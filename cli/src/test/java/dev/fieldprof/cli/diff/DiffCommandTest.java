package dev.fieldprof.cli.diff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiffCommandTest {
    @TempDir Path dir;

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    private Path before() throws IOException {
        return write(
                "before.collapsed",
                "java/lang/Thread.run;com/acme/W.run;com/acme/W.parse;java/util/HashMap.get 10\n"
                        + "java/lang/Thread.run;com/acme/W.run;java/io/File.exists 4\n");
    }

    private Path after() throws IOException {
        return write(
                "after.collapsed",
                "java/lang/Thread.run;com/acme/W.run;com/acme/W.decode;java/util/HashMap.get 30\n"
                        + "java/lang/Thread.run;com/acme/W.run;java/net/Socket.connect 2\n");
    }

    @Test
    void printsMatchedAndUnmatchedTasksAndWritesHtml() throws IOException {
        Path html = dir.resolve("report.html");
        CliCapture cli = new CliCapture();
        int exit =
                cli.run(
                        "diff",
                        before().toString(),
                        after().toString(),
                        "--alpha",
                        "1",
                        "--app-packages",
                        "com.acme",
                        "--html",
                        html.toString());

        assertThat(exit).as(cli.err()).isZero();
        assertThat(cli.out())
                .contains(
                        "   1         10         30        +20  +62.5%  Thread.run > [app].run >"
                                + " java.util.HashMap.get")
                .contains("Only in A, by cost")
                .contains("java.io.File.exists")
                .contains("java.net.Socket.connect");
        assertThat(Files.readString(html))
                .startsWith("<!DOCTYPE html>")
                .contains("\"method\":\"java.util.HashMap.get\"");
    }

    /**
     * A shop that cleans documents with jsoup; B cleans each one eight times. With everything
     * outside the JDK as the application, jsoup would be merged into the shop's main and the tasks
     * would be the JDK calls jsoup makes; the application inferred from the main frames is the shop
     * alone, so jsoup's clean is the task that grew.
     */
    @Test
    void infersTheApplicationFromTheProfilesAndSaysWhich() throws IOException {
        Path a =
                write(
                        "a.collapsed",
                        "com/acme/shop/web/Main.main;org/jsoup/Jsoup.clean;org/jsoup/safety/Cleaner"
                                + ".clean;java/lang/String.toLowerCase 40\n"
                                + "com/acme/shop/web/Main.main;java/util/Arrays.sort 20\n");
        Path b =
                write(
                        "b.collapsed",
                        "com/acme/shop/web/Main.main;org/jsoup/Jsoup.clean;org/jsoup/safety/Cleaner.clean;java/lang/String.toLowerCase"
                            + " 200\n"
                            + "com/acme/shop/web/Main.main;org/jsoup/Jsoup.clean;org/jsoup/safety/Cleaner.clean;java/util/Arrays.binarySearch"
                            + " 120\n"
                            + "com/acme/shop/web/Main.main;java/util/Arrays.sort 20\n");
        CliCapture cli = new CliCapture();
        int exit = cli.run("diff", a.toString(), b.toString(), "--top", "3");

        assertThat(exit).as(cli.err()).isZero();
        assertThat(cli.err().strip())
                .isEqualTo(
                        "application packages: com.acme.shop (inferred from the outermost frames"
                                + " outside the JDK, 100% of them in it; --app-packages to"
                                + " change)");
        assertThat(cli.out()).contains("   1         40        320       +280");
        assertThat(cli.out().lines().filter(l -> l.startsWith("   1 ")).findFirst().orElseThrow())
                .endsWith("[app].main > org.jsoup.Jsoup.clean");
    }

    @Test
    void rejectsNegativeAlphaWithUsageExitNamingIt() throws IOException {
        CliCapture cli = new CliCapture();
        int exit = cli.run("diff", before().toString(), after().toString(), "--alpha", "-1");
        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).contains("--alpha must be in [0, 100], was -1");
    }

    @Test
    void failsWithOneLineOnAMissingFile() throws IOException {
        CliCapture cli = new CliCapture();
        int exit = cli.run("diff", before().toString(), dir.resolve("nope.jfr").toString());
        assertThat(exit).isEqualTo(1);
        assertThat(cli.err().strip())
                .isEqualTo("fieldprof: no such file: " + dir.resolve("nope.jfr"));
    }
}
