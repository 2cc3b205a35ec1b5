package dev.fieldprof.paths;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Every round trip of {@link PathRoundTripTest} on path format version 3, and what it adds: call
 * sites that reach several methods (virtual dispatch) and positions where uninstrumented code calls
 * back into traced methods any number of times.
 */
class CallSitePathRoundTripTest extends PathRoundTripTest {

    @Override
    PathReportEncoder newEncoder(EdgeModel model) {
        return new CallSitePathEncoder(model);
    }

    /**
     * One binary decision per iteration (version 1 codes two symbols): its miss probability falls
     * to 63 / 2^28 (3.4e-7 bits a decision), so the million cost about a third of a bit; the bytes
     * are the header, the learning of the first iterations, the final miss (about 22 bits) and the
     * 16-bit check.
     */
    @Override
    long longLoopBytes() {
        return 14;
    }

    @Override
    int flippedBits() {
        return 184;
    }

    /** Every flip is caught: the end check folds in each used position's MPS and probability. */
    @Override
    int harmlessFlips() {
        return 0;
    }

    @Test
    void roundTripsVirtualDispatchAtOneCallSite() {
        // Method 0 loops over a list of shapes; each iteration's call site reaches one of three
        // implementations (methods 1-3), each with a branch of its own.
        ArrayBranchTable table =
                ArrayBranchTable.builder(4)
                        .branch(0, 2, 2)
                        .branch(1, 1, 2)
                        .branch(2, 1, 2)
                        .branch(3, 1, 2)
                        .build();
        EdgeModel model = EdgeModel.uniform(table);
        Harness h = harness(model, 7, 0, List.of());
        SplittableRandom rnd = new SplittableRandom(7);
        h.enter(0);
        for (int i = 0; i < 5_000; i++) {
            h.branch(2, 0);
            int impl = 1 + (i % 7 < 4 ? 0 : i % 7 < 6 ? 1 : 2);
            h.enter(impl);
            h.branch(1, rnd.nextInt(10) == 0 ? 1 : 0);
            h.exit(impl);
        }
        h.branch(2, 1);
        h.exit(0);
        long bytes = h.verify(Map.of(0L, model), "virtual dispatch");
        // About 1.4 bits of callee (4:2:1 over 7) and 0.47 bits of branch per iteration.
        assertEquals(1_190, bytes);
    }

    @Test
    void roundTripsCallbacksFromUninstrumentedCodeAtOnePosition() {
        // A sort in the JDK calls the traced comparator (method 1) a varying number of times from
        // one position of method 0; the comparator sometimes throws, which the sort propagates.
        ArrayBranchTable table =
                ArrayBranchTable.builder(3).branch(0, 4, 2).branch(1, 0, 3).build();
        EdgeModel model = EdgeModel.uniform(table);
        Harness h = harness(model, 11, 0, List.of());
        SplittableRandom rnd = new SplittableRandom(11);
        h.enter(0);
        for (int round = 0; round < 400; round++) {
            h.branch(4, 0);
            int compares = rnd.nextInt(0, 12);
            for (int c = 0; c < compares; c++) {
                h.enter(1);
                h.branch(0, rnd.nextInt(3));
                if (rnd.nextInt(50) == 0) {
                    h.enter(2); // a callback from the callback
                    h.exitExceptionally(2);
                    h.exitExceptionally(1);
                    break;
                }
                h.exit(1);
            }
        }
        h.branch(4, 1);
        h.exit(0);
        long bytes = h.verify(Map.of(0L, model), "callbacks");
        assertEquals(720, bytes);
    }
}
