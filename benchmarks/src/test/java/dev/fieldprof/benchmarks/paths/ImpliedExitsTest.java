package dev.fieldprof.benchmarks.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.bytecode.cfg.BranchDescription;
import dev.fieldprof.bytecode.cfg.BytecodeCfg;
import dev.fieldprof.bytecode.cfg.CfgBuilder;
import dev.fieldprof.paths.PathRecording;
import java.io.InputStream;
import java.util.BitSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

class ImpliedExitsTest {
    /** Compiled with the tests; its methods' bytecode is what the checks below expect. */
    static final class Shapes {
        static int counter;
        int x;

        int getter() {
            return x;
        }

        int readsAStatic() {
            return counter;
        }

        int calls() {
            return Integer.bitCount(x);
        }

        int branchy(int a) {
            if (a > 0) {
                return 1;
            }
            return Integer.bitCount(a);
        }
    }

    private static MethodNode method(String name) throws Exception {
        ClassNode node = new ClassNode();
        try (InputStream in =
                ImpliedExitsTest.class.getResourceAsStream("ImpliedExitsTest$Shapes.class")) {
            new ClassReader(in.readAllBytes()).accept(node, ClassReader.SKIP_FRAMES);
        }
        return node.methods.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow();
    }

    private static BitSet quiet(MethodNode m) {
        BytecodeCfg cfg = CfgBuilder.build(m.name, m);
        return ImpliedExits.quietStarts(cfg, m.instructions.toArray());
    }

    @Test
    void aSegmentIsQuietWhenNothingBeforeItsReturnCanRunOtherCode() throws Exception {
        assertThat(quiet(method("getter")).get(0)).isTrue();
        assertThat(quiet(method("readsAStatic")).get(0)).as("a static read may init").isFalse();
        assertThat(quiet(method("calls")).get(0)).isFalse();
        MethodNode branchy = method("branchy");
        BytecodeCfg cfg = CfgBuilder.build("branchy", branchy);
        BitSet quiet = ImpliedExits.quietStarts(cfg, branchy.instructions.toArray());
        assertThat(quiet.get(0)).as("the entry segment ends at a branch node").isFalse();
        // if (a > 0): the taken edge skips to the call, the fall-through returns 1.
        var out = BranchDescription.normalOutEdges(cfg, 0);
        assertThat(out).hasSize(2);
        assertThat(quiet.get(out.get(0).to())).as("taken: bitCount").isFalse();
        assertThat(quiet.get(out.get(1).to())).as("fall-through: return 1").isTrue();
    }

    @Test
    void countsTheNormalExitsOfQuietSegmentsWithoutACallSinceTheyBegan() throws Exception {
        MethodNode branchy = method("branchy");
        BytecodeCfg cfg = CfgBuilder.build("branchy", branchy);
        BitSet quiet = ImpliedExits.quietStarts(cfg, branchy.instructions.toArray());
        PathRecording run = new PathRecording();
        run.enter(0); // branchy(1): falls through to "return 1", foretold
        run.branch(0, 0, 1);
        run.exit(0, false);
        run.enter(0); // branchy(-1): takes the branch to the call
        run.branch(0, 0, 0);
        run.enter(1);
        run.exit(1, false); // method 1 has no CFG here: never foretold
        run.exit(0, false);
        run.enter(0); // thrown out of the quiet segment: exceptional, not foretold
        run.branch(0, 0, 1);
        run.exit(0, true);
        ImpliedExits.Counts c = ImpliedExits.count(run, Map.of(0, quiet), Map.of(0, cfg));
        assertThat(c).isEqualTo(new ImpliedExits.Counts(4, 4, 1, 1));
    }
}
