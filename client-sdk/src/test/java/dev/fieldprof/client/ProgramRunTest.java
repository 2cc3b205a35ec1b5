package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.ledger.PrivacyLedger;
import dev.fieldprof.client.transport.ReportFile;
import dev.fieldprof.schemas.FrequencyReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An instrumented program in its own JVM, configured only by {@code fieldprof.*} system properties
 * (as the instrumenter's resource would): one run is one epoch, ended at exit; a run with fewer
 * than k events sends nothing and the next run completes the epoch.
 */
class ProgramRunTest {
    @TempDir Path dir;

    private int run(int events) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx128m");
        command.add("-Dfieldprof.app.version=run:1");
        command.add("-Dfieldprof.device.id=runner");
        command.add("-Dfieldprof.method.count=7");
        command.add("-Dfieldprof.privacy.epsilon=ln(9)");
        command.add("-Dfieldprof.privacy.t=1");
        command.add("-Dfieldprof.privacy.k=50");
        command.add("-Dfieldprof.privacy.mode=epsilon-t");
        command.add("-Dfieldprof.privacy.budget=none");
        command.add("-Dfieldprof.state.dir=" + dir);
        command.add("-cp");
        command.add(
                System.getProperty(
                        "surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(ProgramRunMain.class.getName());
        command.add(Integer.toString(events));
        Process process = new ProcessBuilder(command).inheritIO().start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return process.exitValue();
    }

    @Test
    void eachRunIsAnEpochEndedAtExit() throws Exception {
        assertThat(run(30)).isZero(); // fewer than k = 50: carried, nothing sent
        assertThat(PrivacyLedger.readAll(dir))
                .singleElement()
                .satisfies(e -> assertThat(e.reports()).isZero());
        assertThat(run(30)).isZero(); // 60 >= 50: one report
        assertThat(run(500)).isZero(); // one more
        List<FrequencyReport> reports = ReportFile.readAll(dir.resolve("reports.fpr"));
        assertThat(reports).hasSize(2);
        assertThat(reports)
                .allSatisfy(
                        r -> {
                            assertThat(r.getDeviceId()).isEqualTo("runner");
                            assertThat(r.getK()).isEqualTo(50);
                            assertThat(r.getCounts()).hasSize(7);
                        });
        assertThat(PrivacyLedger.readAll(dir))
                .singleElement()
                .satisfies(e -> assertThat(e.eventsReported()).isEqualTo(100));
    }
}
