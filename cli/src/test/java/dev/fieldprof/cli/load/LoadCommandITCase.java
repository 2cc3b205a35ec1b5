package dev.fieldprof.cli.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.runtime.EmbeddedRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fieldprof load} against the frequency job on the embedded runtime (a real KRaft broker and
 * MiniCluster): the simulated devices' reports are all counted, once, and the figures are there.
 */
class LoadCommandITCase {

    @Test
    void everyReportTheDevicesMadeIsCountedOnceAndMeasured(@TempDir Path dir) throws Exception {
        try (EmbeddedRuntime runtime = EmbeddedRuntime.builder().taskSlots(2).build().start()) {
            String bootstrap = runtime.bootstrapServers();
            StreamExecutionEnvironment env = runtime.environment();
            FrequencyEstimationJob.onKafka(
                            FrequencyJobOptions.fromMap(
                                    Map.of(
                                            FrequencyJobOptions.BOOTSTRAP.key(), bootstrap,
                                            FrequencyJobOptions.WINDOW.key(), "2s",
                                            FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), "1s",
                                            FrequencyJobOptions.OUT_OF_ORDERNESS.key(), "500ms",
                                            FrequencyJobOptions.IDLENESS.key(), "2s",
                                            FrequencyJobOptions.TRANSACTIONAL_ID_PREFIX.key(),
                                                    "load-it-" + System.nanoTime())))
                    .buildInto(env);
            JobClient job = env.executeAsync(FrequencyEstimationJob.NAME);
            try {
                Path json = dir.resolve("load.json");
                CliCapture cli = new CliCapture();
                int exit =
                        cli.run(
                                "load",
                                "--bootstrap",
                                bootstrap,
                                "--devices",
                                "10",
                                "--rate",
                                "50",
                                "--duration",
                                "6s",
                                "--methods",
                                "20",
                                "--state-dir",
                                dir.resolve("devices").toString(),
                                "--json",
                                json.toString());
                String figures = Files.readString(json);
                assertThat(exit).as(cli.err() + figures).isZero();
                long made = value(figures, "made");
                // 50 reports/s, paced by a schedule: never ahead of it (one report per worker at
                // the start). How far behind it a busy machine falls is not asserted: a run under
                // load made 275 of the 300 due, and no test may depend on how fast the machine is.
                double sendSeconds = seconds(figures, "sendSeconds");
                assertThat(sendSeconds).isGreaterThanOrEqualTo(6.0);
                assertThat(made).isBetween(10L, (long) Math.floor(50 * sendSeconds) + 2);
                assertThat(value(figures, "distinctOnTopic")).isEqualTo(made);
                assertThat(value(figures, "recordsOnTopic")).isEqualTo(made);
                assertThat(value(figures, "counted")).isEqualTo(made);
                assertThat(value(figures, "deadLetters")).isZero();
                assertThat(figures)
                        .contains("\"exact\": true")
                        .contains("\"latencyMillis\": {\"p50\": ");
                // Every device numbered its own reports in its own state directory.
                try (Stream<Path> devices = Files.list(dir.resolve("devices"))) {
                    assertThat(devices.filter(p -> p.getFileName().toString().startsWith("load-")))
                            .hasSize(10);
                }
            } finally {
                job.cancel().get();
            }
        }
    }

    private static double seconds(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": ([0-9.]+)").matcher(json);
        assertThat(m.find()).as(key + " in " + json).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static long value(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": (\\d+)").matcher(json);
        assertThat(m.find()).as(key + " in " + json).isTrue();
        return Long.parseLong(m.group(1));
    }
}
