package dev.fieldprof.jobs.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ShufflerJobOptionsTest {
    @Test
    void defaultsReadTheShufflerTopicsAndHoldBatchesOfAThousand() {
        ShufflerJobOptions options = ShufflerJobOptions.parse("--bootstrap", "k:9092");
        assertThat(options.inputTopic()).isEqualTo("fieldprof.shuffler.input");
        assertThat(options.shuffledTopic()).isEqualTo("fieldprof.reports.shuffled");
        assertThat(options.deadLetterTopic()).isEqualTo("fieldprof.shuffler.dead-letters");
        assertThat(options.minBatchSize()).isEqualTo(1000);
        assertThat(options.maxBatchSize()).isEqualTo(100_000);
        assertThat(options.releaseInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(options.maxWait()).isEqualTo(Duration.ofDays(7));
        assertThat(options.deviceTtl()).isEqualTo(Duration.ofDays(90));
        assertThat(options.groupId()).isEqualTo("fieldprof-shuffler");
        assertThat(options.transactionalIdPrefix()).isEqualTo("fieldprof-shuffler");
    }

    @Test
    void refusesAMinimumAboveTheMaximum() {
        assertThatThrownBy(
                        () ->
                                ShufflerJobOptions.parse(
                                        "--bootstrap",
                                        "k",
                                        "--min-batch-size",
                                        "11",
                                        "--max-batch-size",
                                        "10"))
                .hasMessage("--min-batch-size 11 must be <= --max-batch-size 10");
        assertThatThrownBy(
                        () -> ShufflerJobOptions.parse("--bootstrap", "k", "--min-batch-size", "0"))
                .hasMessage("--min-batch-size must be >= 1");
    }
}
