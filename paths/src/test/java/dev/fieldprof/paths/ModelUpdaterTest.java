package dev.fieldprof.paths;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ModelUpdaterTest {
    static final ArrayBranchTable TABLE = EdgeModelTest.TABLE;

    /** Three invocations of method 0 taking edge 1 at block 2, then returning. */
    static EdgeCounter threeInvocations() {
        EdgeCounter c = new EdgeCounter(TABLE);
        for (int i = 0; i < 3; i++) {
            c.enter(0);
            c.branch(0, 2, 1);
            c.exit(0, false);
        }
        return c;
    }

    @Test
    void countsEdgesEntriesAndSuccessorsPerContext() {
        EdgeCounter c = threeInvocations();
        assertEquals(3, c.count(0, 2, 1));
        assertEquals(0, c.count(0, 2, 0));
        assertEquals(3, c.total(0, 2));
        assertEquals(3, c.entries(0));
        assertEquals(3, c.decisions());
        // Root frame (method id 2 = methodCount): contexts 0, 1, 2 (calls returned 0, 1, 2),
        // each followed by a call of method 0: symbol 2 + 0 branch nodes + 0.
        assertEquals(1, c.successorCount(2, 0, 2));
        assertEquals(1, c.successorCount(2, 1, 2));
        assertEquals(1, c.successorCount(2, 2, 2));
        // Method 0: after entry (context 0) its branch node ordinal 0 (symbol 2); after local
        // edge 1 (context (1 + 1) * 4 = 8) the normal exit (symbol 0).
        assertEquals(3, c.successorCount(0, 0, 2));
        assertEquals(3, c.successorCount(0, 8, 0));
        EdgeCounter twice = new EdgeCounter(TABLE);
        twice.addAll(c);
        twice.addAll(c);
        assertEquals(6, twice.count(0, 2, 1));
        assertEquals(6, twice.successorCount(0, 8, 0));
        assertEquals(6, twice.entries(0));
    }

    @Test
    void nextModelIsSmoothedScaledAndKeepsUnseenNodes() {
        EdgeModel m0 =
                EdgeModel.builder(EdgeModel.uniform(TABLE))
                        .version(4)
                        .frequencies(0, 9, new int[] {5, 6, 7})
                        .build();
        EdgeCounter c = threeInvocations();
        for (int i = 0; i < 3000; i++) {
            c.branch(0, 5, 0); // outside any frame: edges counted, no successor context
        }
        for (int i = 0; i < 1000; i++) {
            c.branch(0, 5, 1);
        }
        EdgeModel m1 = new ModelUpdater(1024).next(m0, c);
        assertEquals(5, m1.version());
        // Counts (0, 3): (c + 1/2) * inc = (2, 14).
        assertArrayEquals(new int[] {2, 14}, m1.frequencies(0, 2));
        // Counts (3000, 1000): above 1024, so 1 + (2c + 1) * 1022 / 8002 = (767, 256).
        assertArrayEquals(new int[] {767, 256}, m1.frequencies(0, 5));
        // Not seen in the window: model 4's frequencies.
        assertArrayEquals(new int[] {5, 6, 7}, m1.frequencies(0, 9));
        // Successor hints: (c + 1/2) * 16 = 56 for count 3, 24 for count 1.
        assertArrayEquals(new int[] {0, 8}, m1.successorContexts(0));
        assertArrayEquals(new int[] {2}, m1.successorSymbols(0, 0));
        assertArrayEquals(new int[] {56}, m1.successorFrequencies(0, 0));
        assertArrayEquals(new int[] {0}, m1.successorSymbols(0, 8));
        assertArrayEquals(new int[] {0, 1, 2}, m1.successorContexts(2));
        assertArrayEquals(new int[] {24}, m1.successorFrequencies(2, 1));
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        new ModelUpdater(1024)
                                .next(EdgeModel.uniform(ArrayBranchTable.builder(1).build()), c));
        assertThrows(IllegalArgumentException.class, () -> new ModelUpdater(1));
    }

    @Test
    void hintsKeepTheFourMostFrequentSuccessorsTiesBySymbol() {
        ArrayBranchTable table = ArrayBranchTable.builder(6).build();
        EdgeCounter c = new EdgeCounter(table);
        // Root context 3 (3+ calls returned) sees calls of methods 0..5 with counts 1, 5, 5, 2,
        // 1, 9 (after three warm-up calls of method 0 in contexts 0, 1, 2).
        int[] times = {1 + 3, 5, 5, 2, 1, 9};
        for (int m = 0; m < 6; m++) {
            for (int i = 0; i < times[m]; i++) {
                c.enter(m);
                c.exit(m, false);
            }
        }
        EdgeModel m1 = new ModelUpdater(1024).next(EdgeModel.uniform(table), c);
        // Symbols 2 + callee: 7 (9 times), 3 and 4 (5 each), 5 (2 times); 2 and 6 are dropped.
        assertArrayEquals(new int[] {7, 3, 4, 5}, m1.successorSymbols(6, 3));
        assertArrayEquals(new int[] {152, 88, 88, 40}, m1.successorFrequencies(6, 3));
    }
}
