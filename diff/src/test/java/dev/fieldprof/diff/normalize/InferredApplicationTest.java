package dev.fieldprof.diff.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.read.CollapsedStacksReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InferredApplicationTest {
    @TempDir Path dir;

    @Test
    void mainClassGivesItsPackageCutToThreeSegments() {
        assertThat(InferredApplication.fromMainClass("com.acme.shop.web.Main"))
                .contains(
                        new InferredApplication(
                                List.of("com.acme.shop"), "the main class com.acme.shop.web.Main"));
        assertThat(InferredApplication.fromMainClass("org.apache.flink.client.cli.CliFrontend"))
                .map(InferredApplication::packages)
                .contains(List.of("org.apache.flink"));
        assertThat(InferredApplication.fromMainClass("app.Main"))
                .map(InferredApplication::packages)
                .contains(List.of("app"));
    }

    @Test
    void noPackageIsInferredFromTheDefaultPackageOrTheJdk() {
        assertThat(InferredApplication.fromMainClass("Main")).isEmpty();
        assertThat(InferredApplication.fromMainClass("com.sun.tools.javac.launcher.Main"))
                .isEmpty();
    }

    /**
     * A shop whose main thread and mail worker run its own code (90 samples), a jsoup worker (20),
     * a GC thread and a native library frame (not Java, so they do not count).
     */
    @Test
    void collapsedStacksGiveThePackageMostStacksEnterFirstOutsideTheJdk() throws IOException {
        Path profile =
                write(
                        "shop.collapsed",
                        "com/acme/shop/web/Main.main;com/acme/shop/web/Cart.total;java/util/HashMap.get_[j]"
                            + " 60\n"
                            + "java/lang/Thread.run;java/util/concurrent/ThreadPoolExecutor.runWorker;com/acme/shop/mail/Mailer.run;org/jsoup/Jsoup.clean"
                            + " 30\n"
                            + "java/lang/Thread.run;org/jsoup/helper/Worker.run 20\n"
                            + "[unknown];start_thread;GCTaskThread::run 200\n"
                            + "/usr/lib/libc.so.6;__clone 100\n");
        CallingContextTree tree = new CollapsedStacksReader().read(profile);

        assertThat(new CollapsedStacksReader().inferApplication(profile, tree))
                .contains(
                        new InferredApplication(
                                List.of("com.acme.shop"),
                                "the outermost frames outside the JDK, 82% of them in it"));
    }

    @Test
    void collapsedStacksWithoutADominantPackageOrAnyJavaFrameOutsideTheJdkShowNone()
            throws IOException {
        CallingContextTree even =
                new CollapsedStacksReader()
                        .read(
                                write(
                                        "even.collapsed",
                                        "com/acme/shop/Main.main;java/lang/String.trim 50\n"
                                            + "java/lang/Thread.run;org/jsoup/Worker.run 50\n"));
        assertThat(InferredApplication.fromOutermostFrames(even)).isEmpty();

        CallingContextTree jdkOnly =
                new CollapsedStacksReader()
                        .read(
                                write(
                                        "jdk.collapsed",
                                        "java/lang/Thread.run;java/lang/Object.wait 50\n"
                                                + "[unknown];start_thread;VMThread::run 20\n"));
        assertThat(InferredApplication.fromOutermostFrames(jdkOnly)).isEmpty();
    }

    @Test
    void twoProfilesJoinTheirPackages() {
        Map<String, Optional<InferredApplication>> shown = new LinkedHashMap<>();
        shown.put("v1.jfr", InferredApplication.fromMainClass("com.acme.shop.Main"));
        shown.put("v2.jfr", InferredApplication.fromMainClass("com.acme.store.Main"));

        InferredApplication.Choice choice = InferredApplication.choose(shown);

        assertThat(choice.summary())
                .isEqualTo(
                        "application packages: com.acme.shop,com.acme.store (inferred from the"
                                + " main class com.acme.shop.Main and the main class"
                                + " com.acme.store.Main; --app-packages to change)");
        assertThat(choice.packages().isApplication("com.acme.store.Cart.total")).isTrue();
        assertThat(choice.packages().isApplication("org.jsoup.Jsoup.clean")).isFalse();
    }

    @Test
    void oneProfileThatShowsThePackagesIsEnough() {
        Map<String, Optional<InferredApplication>> shown = new LinkedHashMap<>();
        shown.put("v1.jfr", Optional.empty());
        shown.put("v2.jfr", InferredApplication.fromMainClass("com.acme.shop.Main"));

        assertThat(InferredApplication.choose(shown).summary())
                .isEqualTo(
                        "application packages: com.acme.shop (inferred from the main class"
                                + " com.acme.shop.Main; --app-packages to change)");
    }

    @Test
    void withNoMainClassTheApplicationIsEverythingOutsideTheJdk() {
        Map<String, Optional<InferredApplication>> shown = new LinkedHashMap<>();
        shown.put("v1.jfr", Optional.empty());
        shown.put("v2.jfr", InferredApplication.fromMainClass("Main"));

        InferredApplication.Choice choice = InferredApplication.choose(shown);

        assertThat(choice.summary())
                .isEqualTo(
                        "application packages: everything outside the JDK (nothing to infer them"
                                + " from in v1.jfr or v2.jfr; --app-packages to name them)");
        assertThat(choice.packages().toString()).isEqualTo("outside the JDK");
        assertThat(choice.packages().isApplication("org.jsoup.Jsoup.clean")).isTrue();
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }
}
