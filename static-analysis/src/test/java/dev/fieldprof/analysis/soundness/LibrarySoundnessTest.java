package dev.fieldprof.analysis.soundness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.analysis.FixtureJars;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pairs hold in every seeded random run of three real Maven Central libraries. The libraries
 * are the commons-lang3, gson and commons-codec jars already on the test classpath (Soot and Avro
 * depend on them), so the test needs no download.
 */
class LibrarySoundnessTest {

    static final long SEED = 20_260_422L;
    static final int RUNS = 40;
    static final int CALLS_PER_RUN = 400;

    @TempDir static Path work;
    static Path probes;
    static Path driver;

    @BeforeAll
    static void compileDriver() throws Exception {
        probes = FixtureJars.compile("probes", work.resolve("probes"), null);
        driver = SoundnessCheck.compileDriver(work.resolve("driver"), probes);
    }

    private static void check(String program, String anyClass, String prefix) throws Exception {
        SoundnessCheck.Outcome outcome =
                SoundnessCheck.run(
                        program,
                        SoundnessCheck.jarOf(anyClass),
                        prefix,
                        probes,
                        driver,
                        RUNS,
                        CALLS_PER_RUN,
                        SEED,
                        work);
        System.out.println("soundness seed=" + SEED + " " + outcome.row());
        List<String> shown = new ArrayList<>();
        for (SoundnessCheck.Violation v : outcome.violations()) {
            if (shown.size() < 20) {
                shown.add(v.toString());
            }
        }
        assertThat(outcome.runs()).isGreaterThan(RUNS / 2);
        assertThat(outcome.pairs()).isPositive();
        assertThat(outcome.methodsExecuted()).isGreaterThan(100);
        assertThat(shown).as("violations (seed " + SEED + ")" + File.separator).isEmpty();
    }

    @Test
    void commonsLang3PairsHoldInEveryRun() throws Exception {
        check(
                "commons-lang3:3",
                "org.apache.commons.lang3.StringUtils",
                "org.apache.commons.lang3");
    }

    @Test
    void gsonPairsHoldInEveryRun() throws Exception {
        check("gson:2", "com.google.gson.Gson", "com.google.gson");
    }

    @Test
    void commonsCodecPairsHoldInEveryRun() throws Exception {
        check(
                "commons-codec:1",
                "org.apache.commons.codec.binary.Base64",
                "org.apache.commons.codec");
    }
}
