package dev.fieldprof.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EdgeCounterTest {
    static final ArrayBranchTable TABLE =
            BranchTableText.parse("fieldprof-branches 1\nmethods 3\n0 0:2 5:3\n1 2:2\n");

    static EdgeCounter counted() {
        EdgeCounter c = new EdgeCounter(TABLE);
        c.enter(0);
        for (int i = 0; i < 7; i++) {
            c.branch(0, 0, i % 3 == 0 ? 1 : 0);
            c.branch(0, 5, 2);
            c.enter(1);
            c.branch(1, 2, 1);
            c.exit(1, i == 6);
        }
        c.enter(9); // not a method of the table: ignored
        c.exit(0, false);
        return c;
    }

    @Test
    void countsSurviveTheirBytesExactly() {
        EdgeCounter original = counted();
        EdgeCounter restored = EdgeCounter.fromBytes(TABLE, original.toBytes());

        assertThat(restored.count(0, 0, 0)).isEqualTo(4);
        assertThat(restored.count(0, 0, 1)).isEqualTo(3);
        assertThat(restored.count(0, 5, 2)).isEqualTo(7);
        assertThat(restored.count(1, 2, 1)).isEqualTo(7);
        assertThat(restored.entries(1)).isEqualTo(7);
        assertThat(restored.decisions()).isEqualTo(21);
        assertThat(restored.ignored()).isEqualTo(1);
        assertThat(restored.toBytes()).isEqualTo(original.toBytes());
        ModelUpdater updater = new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL);
        EdgeModel uniform = EdgeModel.uniform(TABLE);
        assertThat(updater.next(uniform, restored)).isEqualTo(updater.next(uniform, original));
    }

    @Test
    void restoredCountsKeepCounting() {
        EdgeCounter restored = EdgeCounter.fromBytes(TABLE, counted().toBytes());
        restored.addAll(counted());
        assertThat(restored.count(0, 0, 1)).isEqualTo(6);
        assertThat(restored.successorCount(1, 0, SuccessorModel.EXIT))
                .isEqualTo(2 * counted().successorCount(1, 0, SuccessorModel.EXIT));
    }

    @Test
    void refusesCountsOfAnotherTable() {
        ArrayBranchTable other = BranchTableText.parse("fieldprof-branches 1\nmethods 2\n0 0:2\n");
        assertThatThrownBy(() -> EdgeCounter.fromBytes(other, counted().toBytes()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("edge counts of format 1 for 3 methods, expected format 1 for 2");
    }
}
