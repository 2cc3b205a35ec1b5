package dev.fieldprof.paths;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EdgeModelTest {
    // Method 0: blocks 2 (2 edges), 5 (2 edges), 9 (3 edges); method 1: none.
    static final ArrayBranchTable TABLE =
            ArrayBranchTable.builder(2).branch(0, 2, 2).branch(0, 5, 2).branch(0, 9, 3).build();

    @Test
    void uniformModelHasAllOnes() {
        EdgeModel m = EdgeModel.uniform(TABLE);
        assertEquals(0, m.version());
        assertEquals(4, m.inc());
        assertEquals(8192, m.bound());
        assertArrayEquals(new int[] {1, 1, 1}, m.frequencies(0, 9));
        assertTrue(m.matches(TABLE));
        assertFalse(m.matches(ArrayBranchTable.builder(2).branch(0, 2, 3).build()));
        assertArrayEquals(new int[0], m.successorContexts(2));
        assertEquals(6195859297736289827L, m.branchFingerprint());
        assertEquals(
                m.branchFingerprint(), EdgeModel.branchFingerprint(ArrayBranchTable.copyOf(TABLE)));
        assertTrue(
                m.branchFingerprint()
                        != EdgeModel.branchFingerprint(
                                ArrayBranchTable.builder(2)
                                        .branch(0, 2, 2)
                                        .branch(0, 5, 2)
                                        .branch(0, 9, 4)
                                        .build()));
    }

    @Test
    void builderValidatesWithMessagesThatStateTheConstraint() {
        EdgeModel m = EdgeModel.uniform(TABLE);
        assertEquals(
                "block 9 of method 0 has 3 out-edges, got 2 frequencies",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> EdgeModel.builder(m).frequencies(0, 9, new int[] {1, 2}))
                        .getMessage());
        assertEquals(
                "frequencies must be >= 1, got [0, 2]",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> EdgeModel.builder(m).frequencies(0, 2, new int[] {0, 2}))
                        .getMessage());
        assertEquals(
                "frequencies of block 2 of method 0 sum to 8193, above the bound 8192",
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        EdgeModel.builder(m)
                                                .frequencies(0, 2, new int[] {8000, 193})
                                                .build())
                        .getMessage());
        assertEquals(
                "bound must be in [2, 65532] for inc 4, got 65533",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> EdgeModel.builder(m).bound(65533).build())
                        .getMessage());
        assertEquals(
                "inc must be in [1, 4096], got 0",
                assertThrows(IllegalArgumentException.class, () -> EdgeModel.builder(m).inc(0))
                        .getMessage());
        assertEquals(
                "block 3 of method 0 is not a branch node",
                assertThrows(IllegalArgumentException.class, () -> m.frequencies(0, 3))
                        .getMessage());
        assertEquals(
                "context must be in [0, 32), got 32",
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        EdgeModel.builder(m)
                                                .successors(0, 32, new int[] {0}, new int[] {1}))
                        .getMessage());
        // Method 0 frame symbols: 0, 1 exits, 2..4 branch nodes, 5..6 calls of methods 0, 1.
        assertEquals(
                "symbols must be in [0, 7) with frequencies >= 1, got [7] / [1]",
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        EdgeModel.builder(m)
                                                .successors(0, 0, new int[] {7}, new int[] {1}))
                        .getMessage());
        assertEquals(
                "symbols must be distinct, got [3, 3]",
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        EdgeModel.builder(m)
                                                .successors(
                                                        0, 0, new int[] {3, 3}, new int[] {1, 1}))
                        .getMessage());
    }

    @Test
    void builderCopiesAndComparesByValue() {
        EdgeModel m0 = EdgeModel.uniform(TABLE);
        EdgeModel m1 =
                EdgeModel.builder(m0)
                        .version(1)
                        .frequencies(0, 5, new int[] {7, 3})
                        .successors(2, 0, new int[] {2, 3}, new int[] {40, 8})
                        .build();
        assertArrayEquals(new int[] {7, 3}, m1.frequencies(0, 5));
        assertArrayEquals(new int[] {1, 1}, m0.frequencies(0, 5));
        assertArrayEquals(new int[] {0}, m1.successorContexts(2));
        assertArrayEquals(new int[] {2, 3}, m1.successorSymbols(2, 0));
        assertArrayEquals(new int[] {40, 8}, m1.successorFrequencies(2, 0));
        assertArrayEquals(new int[0], m1.successorSymbols(2, 1));
        EdgeModel again = EdgeModel.builder(m1).build();
        assertEquals(m1, again);
        assertEquals(m1.hashCode(), again.hashCode());
        assertNotEquals(m0, m1);
        EdgeModel removed = EdgeModel.builder(m1).successors(2, 0, new int[0], new int[0]).build();
        assertArrayEquals(new int[0], removed.successorContexts(2));
        m1.frequencies(0, 5)[0] = 99; // a copy
        assertArrayEquals(new int[] {7, 3}, m1.frequencies(0, 5));
    }

    @Test
    void adaptiveCopyFollowsAdapTracerIncAndBound() {
        EdgeModel m = EdgeModel.uniform(TABLE, 3, 4, 20);
        AdaptiveEdgeModel a = new AdaptiveEdgeModel(m);
        int[][] expected = {{5, 1, 1}, {9, 1, 1}, {13, 1, 1}, {17, 1, 1}, {11, 1, 1}};
        for (int[] want : expected) {
            a.update(0, 9, 0);
            assertArrayEquals(
                    want,
                    new int[] {a.frequency(0, 9, 0), a.frequency(0, 9, 1), a.frequency(0, 9, 2)});
        }
        // 17 + 1 + 1 + 4 = 23 > 20 halved with rounding up: 21 -> 11, 1 -> 1: none reaches 0.
        a.update(0, 9, 2);
        assertEquals(5, a.frequency(0, 9, 2));
        assertEquals(1, a.frequency(0, 2, 1)); // other nodes untouched
        a.reset();
        assertEquals(1, a.frequency(0, 9, 0));
        assertThrows(IllegalArgumentException.class, () -> a.update(0, 9, 3));
    }

    @Test
    void branchTableRejectsMalformedNodes() {
        assertEquals(
                "outDegree must be in [2, 4096], got 1",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ArrayBranchTable.builder(1).branch(0, 0, 1))
                        .getMessage());
        assertEquals(
                "block 0 of method 0 declared twice",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ArrayBranchTable.builder(1).branch(0, 0, 2).branch(0, 0, 2))
                        .getMessage());
        assertEquals(
                "methodId must be in [0, 1), got 1",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ArrayBranchTable.builder(1).branch(1, 0, 2))
                        .getMessage());
        BranchTable unsorted =
                new BranchTable() {
                    @Override
                    public int methodCount() {
                        return 1;
                    }

                    @Override
                    public int[] branchBlocks(int methodId) {
                        return new int[] {4, 2};
                    }

                    @Override
                    public int outDegree(int methodId, int blockId) {
                        return 2;
                    }
                };
        assertEquals(
                "branch blocks of method 0 must be ascending ids in [0, 1048576], got [4, 2]",
                assertThrows(IllegalArgumentException.class, () -> EdgeModel.uniform(unsorted))
                        .getMessage());
    }

    /**
     * A device of a probe-plan variant adopts a published model for exactly the methods it traces;
     * whatever was learned for other methods stays with the devices that trace them. Its reports
     * still decode with the published model, which the job holds.
     */
    @Test
    void aVariantAdoptsTheModelForItsMethodsOnlyAndItsReportsDecodeWithThePublishedOne()
            throws InvalidPathReportException {
        ArrayBranchTable table =
                ArrayBranchTable.builder(2).branch(0, 2, 2).branch(1, 4, 2).build();
        EdgeModel published =
                EdgeModel.builder(EdgeModel.uniform(table))
                        .version(3)
                        .writer("job-a")
                        .frequencies(0, 2, new int[] {30, 2})
                        .frequencies(1, 4, new int[] {1, 40})
                        .successors(0, 0, new int[] {2}, new int[] {9})
                        .successors(1, 0, new int[] {2}, new int[] {7})
                        .successors(2, 0, new int[] {2}, new int[] {5})
                        .build();

        EdgeModel adopted = published.restrictedTo(new boolean[] {true, false});

        assertEquals(3, adopted.version());
        assertEquals("job-a", adopted.writer());
        assertArrayEquals(new int[] {30, 2}, adopted.frequencies(0, 2));
        assertArrayEquals(new int[] {9}, adopted.successorFrequencies(0, 0));
        assertArrayEquals(new int[] {1, 1}, adopted.frequencies(1, 4));
        assertArrayEquals(new int[0], adopted.successorContexts(1));
        // The outermost frame (id = methodCount) is every device's: kept as published.
        assertArrayEquals(new int[] {5}, adopted.successorFrequencies(2, 0));

        PathRecording run = new PathRecording();
        for (int i = 0; i < 50; i++) {
            run.enter(0);
            run.branch(0, 2, i % 7 == 0 ? 1 : 0);
            run.exit(0, false);
        }
        PathEncoder encoder = new PathEncoder(adopted);
        run.replay(
                new PathEventSink() {
                    @Override
                    public void enter(int methodId) {
                        encoder.enterMethod(methodId);
                    }

                    @Override
                    public void branch(int methodId, int blockId, int edgeIndex) {
                        encoder.branch(blockId, edgeIndex);
                    }

                    @Override
                    public void exit(int methodId, boolean exceptional) {
                        encoder.exitMethod(methodId);
                    }
                });
        PathRecording decoded = new PathRecording();
        new PathDecoder(published).decode(encoder.finishReport(), decoded);
        assertEquals(run, decoded);
        assertThrows(IllegalArgumentException.class, () -> published.restrictedTo(new boolean[1]));
    }
}
