package dev.fieldprof.jobs.frequency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FrequencyJobOptionsTest {
    @Test
    void fillsInTheDefaults() {
        FrequencyJobOptions o = FrequencyJobOptions.parse("--bootstrap", "localhost:9092");
        assertThat(o.bootstrap()).isEqualTo("localhost:9092");
        assertThat(o.reportsTopic()).isEqualTo(Topics.FREQUENCY_REPORTS);
        assertThat(o.programsTopic()).isEqualTo(Topics.PROGRAMS);
        assertThat(o.estimatesTopic()).isEqualTo(Topics.ESTIMATES);
        assertThat(o.deadLetterTopic()).isEqualTo(Topics.DEAD_LETTERS);
        assertThat(o.window()).isEqualTo(Duration.ofMinutes(1));
        assertThat(o.hotThreshold()).isEqualTo(0.25);
        assertThat(o.top()).isEqualTo(20);
        assertThat(o.transactionTimeout()).isLessThan(Duration.ofMinutes(15));
    }

    @Test
    void parsesEveryFormAndRoundTrips() {
        FrequencyJobOptions o =
                FrequencyJobOptions.parse(
                        "--bootstrap=b:1",
                        "--window",
                        "30 s",
                        "--shards",
                        "8",
                        "--top",
                        "5",
                        "--hot-threshold",
                        "0.5",
                        "--checkpoint-interval",
                        "0");
        assertThat(o.window()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.shards()).isEqualTo(8);
        assertThat(o.checkpointInterval()).isZero();
        assertThat(FrequencyJobOptions.fromMap(o.toMap())).isEqualTo(o);
        assertThat(o.with(Map.of(FrequencyJobOptions.SHARDS.key(), "2")).shards()).isEqualTo(2);
    }

    @Test
    void namesTheMissingRequiredOption() {
        assertThatThrownBy(() -> FrequencyJobOptions.parse("--window", "1 min"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("missing required option(s): --bootstrap");
    }

    @Test
    void rejectsUnknownAndBadOptions() {
        assertThatThrownBy(() -> FrequencyJobOptions.parse("--bootstrap", "b", "--windw", "1"))
                .hasMessageStartingWith("unknown option --windw");
        assertThatThrownBy(() -> FrequencyJobOptions.parse("--bootstrap", "b", "--shards", "0"))
                .hasMessage("--shards must be >= 1");
        assertThatThrownBy(() -> FrequencyJobOptions.parse("--bootstrap", "b", "--window", "soon"))
                .hasMessageContaining("--window: not a duration");
        assertThatThrownBy(() -> FrequencyJobOptions.parse("--bootstrap"))
                .hasMessage("--bootstrap needs a value");
    }
}
