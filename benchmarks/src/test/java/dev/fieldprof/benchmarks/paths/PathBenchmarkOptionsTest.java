package dev.fieldprof.benchmarks.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

class PathBenchmarkOptionsTest {
    @Test
    void defaultsToTheIssuesProtocol() {
        PathBenchmarkOptions o = PathBenchmarkOptions.parse();
        assertThat(o).isEqualTo(new PathBenchmarkOptions(1.0, null, 5, 60, 9, false));
        assertThat(o.issueProtocol()).isTrue();
    }

    @Test
    void readsScaleProgramsAndRounds() {
        PathBenchmarkOptions o = PathBenchmarkOptions.parse("0.5", "gson,guava", "--rounds", "7");
        assertThat(o)
                .isEqualTo(new PathBenchmarkOptions(0.5, Set.of("gson", "guava"), 7, 60, 9, false));
        assertThat(o.issueProtocol()).isTrue();
    }

    @Test
    void quickModeIsOneShortRoundUnlessRoundsAreGiven() {
        assertThat(PathBenchmarkOptions.parse("--quick"))
                .isEqualTo(new PathBenchmarkOptions(1.0, null, 1, 20, 5, true));
        PathBenchmarkOptions o = PathBenchmarkOptions.parse("--rounds", "3", "0.2", "--quick");
        assertThat(o).isEqualTo(new PathBenchmarkOptions(0.2, null, 3, 20, 5, true));
        assertThat(o.issueProtocol()).isFalse();
        assertThat(PathBenchmarkOptions.parse("--rounds", "4").issueProtocol()).isFalse();
    }

    @Test
    void rejectsBadArgumentsNamingThem() {
        assertThatThrownBy(() -> PathBenchmarkOptions.parse("--rounds", "0"))
                .hasMessage("--rounds must be >= 1, got 0");
        assertThatThrownBy(() -> PathBenchmarkOptions.parse("--rounds", "five"))
                .hasMessage("--rounds must be a whole number, got 'five'");
        assertThatThrownBy(() -> PathBenchmarkOptions.parse("--rounds"))
                .hasMessage("--rounds needs a number");
        assertThatThrownBy(() -> PathBenchmarkOptions.parse("--jvms", "5"))
                .hasMessage("unknown option --jvms; expected --rounds N or --quick");
        assertThatThrownBy(() -> PathBenchmarkOptions.parse("0"))
                .hasMessage("scale must be a number > 0, got '0'");
        assertThatThrownBy(() -> PathBenchmarkOptions.parse("one"))
                .hasMessage("scale must be a number > 0, got 'one'");
        assertThatThrownBy(() -> PathBenchmarkOptions.parse("1", "gson,lang3"))
                .hasMessage("unknown program 'lang3'; expected commons-lang3, gson or guava");
        assertThatThrownBy(() -> PathBenchmarkOptions.parse("1", "gson", "extra"))
                .hasMessage("expected at most [scale [programs]], got 1 gson extra");
    }
}
