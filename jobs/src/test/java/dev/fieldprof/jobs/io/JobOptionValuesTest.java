package dev.fieldprof.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.jobs.paths.PathJobOptions;
import dev.fieldprof.jobs.shuffle.ShufflerJobOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobOptionValuesTest {
    private static final JobOption<String> BOOTSTRAP =
            JobOption.string("bootstrap", null, "servers");
    private static final JobOption<Duration> WINDOW =
            JobOption.duration("window", "1 min", "window")
                    .check(JobOption::positive, "must be > 0");
    private static final JobOption<Integer> SHARDS =
            JobOption.integer("shards", "4", "shards").check(n -> n >= 1, "must be >= 1");
    private static final JobOption<Double> RATIO = JobOption.number("ratio", "0.25", "ratio");
    private static final List<JobOption<?>> DECLARED = List.of(BOOTSTRAP, WINDOW, SHARDS, RATIO);

    @Test
    void splitsBothFormsAndFillsDefaults() {
        JobOptionValues args =
                JobOptionValues.parse(DECLARED, "--bootstrap", "k:9092", "--shards=2");
        assertThat(args.get(BOOTSTRAP)).isEqualTo("k:9092");
        assertThat(args.get(SHARDS)).isEqualTo(2);
        assertThat(args.get(WINDOW)).isEqualTo(Duration.ofMinutes(1));
        assertThat(args.get(RATIO)).isEqualTo(0.25);
        assertThat(args.toMap())
                .containsExactly(
                        Map.entry("bootstrap", "k:9092"),
                        Map.entry("window", "1 min"),
                        Map.entry("shards", "2"),
                        Map.entry("ratio", "0.25"));
        assertThat(JobOptionValues.parse(DECLARED, args.toMap())).isEqualTo(args);
        assertThat(args.with(Map.of("shards", "3")).get(SHARDS)).isEqualTo(3);
    }

    @Test
    void namesTheOptionInEveryError() {
        assertThatThrownBy(() -> JobArguments.split("bootstrap"))
                .hasMessage("expected --option, got 'bootstrap'");
        assertThatThrownBy(() -> JobArguments.split("--bootstrap"))
                .hasMessage("--bootstrap needs a value");
        assertThatThrownBy(() -> JobOptionValues.parse(DECLARED, Map.of()))
                .hasMessage("missing required option(s): --bootstrap");
        assertThatThrownBy(() -> JobOptionValues.parse(DECLARED, Map.of("bootstrp", "x")))
                .hasMessage(
                        "unknown option --bootstrp; known: --bootstrap, --window, --shards,"
                                + " --ratio");
        assertThatThrownBy(
                        () ->
                                JobOptionValues.parse(
                                        DECLARED, "--bootstrap", "k", "--window", "soon"))
                .hasMessage("--window: not a duration: 'soon'");
        assertThatThrownBy(
                        () ->
                                JobOptionValues.parse(
                                        DECLARED, "--bootstrap", "k", "--shards", "two"))
                .hasMessage("--shards: not an integer: 'two'");
        assertThatThrownBy(
                        () -> JobOptionValues.parse(DECLARED, "--bootstrap", "k", "--ratio", "x"))
                .hasMessage("--ratio: not a number: 'x'");
        assertThatThrownBy(
                        () -> JobOptionValues.parse(DECLARED, "--bootstrap", "k", "--shards", "0"))
                .hasMessage("--shards must be >= 1");
        assertThatThrownBy(
                        () ->
                                JobOptionValues.parse(
                                        DECLARED, "--bootstrap", "k", "--window", "0 s"))
                .hasMessage("--window must be > 0");
        assertThatThrownBy(() -> JobOptionValues.parse(List.of(SHARDS, SHARDS), Map.of()))
                .hasMessage("--shards declared twice");
    }

    @Test
    void helpListsEveryOptionWithItsMeaningAndDefault() {
        assertThat(JobOptionValues.help(DECLARED))
                .isEqualTo(
                        String.join(
                                System.lineSeparator(),
                                "  --bootstrap TEXT",
                                "      servers (required)",
                                "  --window DURATION",
                                "      window (default: 1 min)",
                                "  --shards N",
                                "      shards (default: 4)",
                                "  --ratio X",
                                "      ratio (default: 0.25)",
                                ""));
    }

    /** docs/jobs.md lists the options as the declarations say: it cannot drift from the parser. */
    @Test
    void theDocsListEachJobsOptionsAsDeclared() throws Exception {
        String docs = Files.readString(Path.of("../docs/jobs.md"));
        assertThat(docs).contains(JobOptionValues.markdown(FrequencyJobOptions.ALL));
        assertThat(docs).contains(JobOptionValues.markdown(PathJobOptions.ALL));
        assertThat(docs).contains(JobOptionValues.markdown(ShufflerJobOptions.ALL));
    }
}
