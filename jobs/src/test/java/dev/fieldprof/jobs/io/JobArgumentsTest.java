package dev.fieldprof.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobArgumentsTest {
    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("bootstrap", null);
        d.put("window", "1 min");
        d.put("shards", "4");
        d.put("ratio", "0.25");
        return d;
    }

    @Test
    void splitsBothFormsAndFillsDefaults() {
        JobArguments args =
                JobArguments.of(
                        defaults(), JobArguments.split("--bootstrap", "k:9092", "--shards=2"));
        assertThat(args.string("bootstrap")).isEqualTo("k:9092");
        assertThat(args.integer("shards")).isEqualTo(2);
        assertThat(args.duration("window")).isEqualTo(Duration.ofMinutes(1));
        assertThat(args.number("ratio")).isEqualTo(0.25);
    }

    @Test
    void namesTheOptionInEveryError() {
        assertThatThrownBy(() -> JobArguments.split("bootstrap"))
                .hasMessage("expected --option, got 'bootstrap'");
        assertThatThrownBy(() -> JobArguments.split("--bootstrap"))
                .hasMessage("--bootstrap needs a value");
        assertThatThrownBy(() -> JobArguments.of(defaults(), Map.of()))
                .hasMessage("missing required option(s): --bootstrap");
        assertThatThrownBy(() -> JobArguments.of(defaults(), Map.of("bootstrp", "x")))
                .hasMessage(
                        "unknown option --bootstrp; known: --bootstrap, --window, --shards,"
                                + " --ratio");
        JobArguments bad =
                JobArguments.of(
                        defaults(),
                        Map.of("bootstrap", "k", "window", "soon", "shards", "two", "ratio", "x"));
        assertThatThrownBy(() -> bad.duration("window"))
                .hasMessage("--window: not a duration: 'soon'");
        assertThatThrownBy(() -> bad.integer("shards"))
                .hasMessage("--shards: not an integer: 'two'");
        assertThatThrownBy(() -> bad.number("ratio")).hasMessage("--ratio: not a number: 'x'");
    }
}
