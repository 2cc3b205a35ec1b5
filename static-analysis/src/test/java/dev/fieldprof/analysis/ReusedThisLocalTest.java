package dev.fieldprof.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rule 1 on bodies where Soot's Jimple keeps another value in the Local of {@code this} (the
 * fixture {@code thislocal} has the shape of commons-lang3's ReflectionDiffBuilder, whose pairs
 * {@code getLeft() ≤ DiffBuilder.getLeft()} and {@code build() ≤ getRight()} failed in driven runs
 * when its DiffBuilder was null): a receiver or field base is {@code this} only where every
 * definition reaching it is {@code @this}.
 */
class ReusedThisLocalTest {

    @TempDir static Path work;
    static AnalysisResult result;

    @BeforeAll
    static void analyzeFixture() throws IOException {
        Path jar = FixtureJars.compileToJar("thislocal", work, null);
        result =
                ProgramAnalyzer.analyze(
                        AnalysisRequest.of(jar, "thislocal:1").withWorld(World.APPLICATION));
    }

    @Test
    void findsNoCallSurePairThroughAFieldThatMayBeNull() {
        assertThat(ProgramAnalyzerTest.pairStrings(result.model()))
                .isEqualTo(
                        Set.of(
                                "ONLY <tl.Delegating: java.lang.Object left()> <= <tl.Delegating:"
                                        + " java.lang.Object build()>",
                                "ONLY <tl.Delegating: java.lang.Object right()> <= <tl.Delegating:"
                                        + " java.lang.Object build()>",
                                "ONLY <tl.Inner: java.lang.Object left()> <= <tl.Delegating:"
                                        + " java.lang.Object left()>",
                                "ONLY <tl.Inner: java.lang.Object right()> <= <tl.Delegating:"
                                        + " java.lang.Object right()>",
                                "ONLY <tl.Delegating: void mark()> <= <tl.Delegating: int"
                                        + " chained()>",
                                // The receiver of left() is the real this: its call is sure.
                                "DOMINATING <tl.Delegating: java.lang.Object build()> <="
                                        + " <tl.Delegating: java.lang.Object left()>"));
    }
}
