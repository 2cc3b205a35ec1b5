package dev.fieldprof.diff.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.diff.cct.CallingContextTree;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PreprocessorTest {
    private final ApplicationPackages acme = ApplicationPackages.of(List.of("com.acme"));

    @Test
    void foldsRecursionIntoTheNonRecursiveAncestor() {
        Preprocessor p = new Preprocessor(PreprocessingOptions.namesOnly().withFoldRecursion(true));
        assertThat(p.transform(List.of("M", "A", "B", "A", "C"))).containsExactly("M", "A", "C");
        assertThat(p.transform(List.of("M", "A", "A", "A"))).containsExactly("M", "A");
        assertThat(p.transform(List.of("M", "A", "B", "C", "B", "D")))
                .containsExactly("M", "A", "B", "D");
    }

    @Test
    void mergesApplicationInternalMethodsIntoTheirCallback() {
        Preprocessor p =
                new Preprocessor(
                        PreprocessingOptions.namesOnly()
                                .withApplicationPackages(acme)
                                .withMergeApplicationInternal(true)
                                .withDropCallbackClass(true));
        assertThat(
                        p.transform(
                                List.of(
                                        "java.lang.Thread.run",
                                        "com.acme.Worker.run",
                                        "com.acme.Worker.step",
                                        "com.acme.Parser.parse",
                                        "java.util.HashMap.get",
                                        "com.acme.Key.hashCode",
                                        "com.acme.Key.mix")))
                .containsExactly(
                        "java.lang.Thread.run",
                        "[app].run",
                        "java.util.HashMap.get",
                        "[app].hashCode");
        assertThat(p.isApplication("[app].run")).isTrue();
        assertThat(p.isApplication("java.util.HashMap.get")).isFalse();
    }

    @Test
    void mergesASuperCallIntoTheOverridingFrame() {
        ClassHierarchy hierarchy = ClassHierarchy.of(Map.of("x.S", "x.T"));
        Preprocessor p =
                new Preprocessor(PreprocessingOptions.namesOnly().withHierarchy(hierarchy));
        assertThat(p.transform(List.of("x.M.main", "x.S.a", "x.T.a", "x.U.b")))
                .containsExactly("x.M.main", "x.S.a", "x.U.b");
        assertThat(hierarchy.overrides("x.S.a", "x.T.a")).isTrue();
        assertThat(hierarchy.overrides("x.S.a", "x.S2.a")).isFalse();
    }

    @Test
    void rebuildsTheTreeWithCostsFollowingMergedFrames() {
        CallingContextTree raw = new CallingContextTree();
        raw.addStack(List.of("java.lang.Thread.run", "com.acme.A.run", "com.acme.A.inner"), 4);
        raw.addStack(
                List.of(
                        "java.lang.Thread.run",
                        "com.acme.A.run",
                        "com.acme.A.inner",
                        "java.io.File.exists"),
                6);
        raw.addStack(List.of("java.lang.Thread.run", "com.acme.A.run", "java.io.File.exists"), 1);
        CallingContextTree out =
                new Preprocessor(PreprocessingOptions.defaults().withApplicationPackages(acme))
                        .apply(raw);
        assertThat(out.size()).isEqualTo(4);
        assertThat(out.find(List.of("java.lang.Thread.run", "[app].run")).exclusive()).isEqualTo(4);
        assertThat(
                        out.find(
                                        List.of(
                                                "java.lang.Thread.run",
                                                "[app].run",
                                                "java.io.File.exists"))
                                .inclusive())
                .isEqualTo(7);
        assertThat(out.totalCost()).isEqualTo(11);
    }
}
