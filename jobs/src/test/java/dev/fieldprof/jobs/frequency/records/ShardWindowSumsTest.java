package dev.fieldprof.jobs.frequency.records;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ShardWindowSumsTest {
    private static final int METHODS = 1_000_000;

    private static ReportRecord userLevel(String id, int... subset) {
        ReportRecord report = new ReportRecord(id, "d", "app:1", "user", 1, new int[0], null);
        report.subset = subset;
        report.methods = METHODS;
        report.generation = 1;
        return report;
    }

    @Test
    void sumsUserLevelSubsetsAsIndicatorVectorsOverTheProgramsMethods() {
        ShardWindowSums sums =
                new ShardWindowSums()
                        .add(userLevel("a", 0, 17, 999_999))
                        .add(userLevel("b", 17, 500_000, 999_999));

        assertThat(sums.sums).hasSize(1);
        assertThat(sums.sums[0].getReports()).isEqualTo(2);
        long[] totals = sums.sums[0].getSums();
        assertThat(totals).hasSize(METHODS);
        assertThat(totals[0]).isEqualTo(1);
        assertThat(totals[17]).isEqualTo(2);
        assertThat(totals[500_000]).isEqualTo(1);
        assertThat(totals[999_999]).isEqualTo(2);
        assertThat(java.util.Arrays.stream(totals).sum()).isEqualTo(6);
    }

    @Test
    void sumsEpsilonTReportsCounts() {
        ReportRecord report =
                new ReportRecord("e", "d", "app:1", "et", 4, new int[] {1, 0, 3}, null);
        ShardWindowSums sums = new ShardWindowSums().add(report).add(report);

        assertThat(sums.sums[0].getReports()).isEqualTo(2);
        assertThat(sums.sums[0].getSums()).containsExactly(2, 0, 6);
    }
}
