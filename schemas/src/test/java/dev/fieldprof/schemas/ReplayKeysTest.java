package dev.fieldprof.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Replay keys are written and read back alike, and hostile keys read as none. */
class ReplayKeysTest {

    private static Optional<String> parse(String key) {
        return ReplayKeys.parse(key.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsWhatItWritesAndNothingElse() {
        assertThat(ReplayKeys.of("fieldprof.reports.frequency", 3, 802))
                .isEqualTo("fieldprof.reports.frequency/3/802");
        assertThat(parse("fieldprof.reports.frequency/3/802"))
                .contains("fieldprof.reports.frequency/3/802");
        assertThat(parse("a/b/0/1")).contains("a/b/0/1");
        assertThat(parse("t/01/002")).contains("t/1/2");
        assertThat(parse("t/-1/2")).isEmpty();
        assertThat(parse("t/1/-2")).isEmpty();
        assertThat(parse("/1/2")).isEmpty();
        assertThat(parse("t/1")).isEmpty();
        assertThat(parse("t/x/2")).isEmpty();
        assertThat(parse("t/1/99999999999999999999")).isEmpty();
        assertThat(parse("t/1/" + "1".repeat(ReplayKeys.MAX_LENGTH))).isEmpty();
        assertThat(ReplayKeys.parse(null)).isEmpty();
        assertThat(ReplayKeys.parse(new byte[0])).isEmpty();
    }
}
