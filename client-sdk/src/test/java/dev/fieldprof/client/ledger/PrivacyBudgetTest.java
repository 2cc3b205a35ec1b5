package dev.fieldprof.client.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivacyBudgetTest {
    private static final Instant NOON = Instant.parse("2026-11-22T12:00:00Z");
    private static final Duration DAY = Duration.ofDays(1);
    @TempDir Path dir;

    @Test
    void refusesAReportThatWouldExceedTheBudgetOfTheRollingPeriod() throws Exception {
        PrivacyBudget budget = PrivacyBudget.open(dir, 8, DAY);
        assertThat(budget.allows(NOON, 3)).isTrue();
        budget.spend(NOON, 3);
        budget.spend(NOON.plus(Duration.ofHours(6)), 3);
        assertThat(budget.spentWithin(NOON.plus(Duration.ofHours(7)))).isEqualTo(6.0);
        assertThat(budget.allows(NOON.plus(Duration.ofHours(7)), 3)).isFalse();
        assertThat(budget.allows(NOON.plus(Duration.ofHours(7)), 2)).isTrue();
        // A day after the first report it leaves the window; the second stays.
        Instant later = NOON.plus(DAY).plusMillis(1);
        assertThat(budget.spentWithin(later)).isEqualTo(3.0);
        assertThat(budget.allows(later, 5)).isTrue();
        assertThat(budget.describe(later))
                .isEqualTo("user-level-epsilon-in-period 3.000000 of budget 8.000000 per PT24H");
    }

    @Test
    void keepsItsSpendingAcrossRestartsAndNeverFreesItWhenTheClockGoesBack() throws Exception {
        PrivacyBudget first = PrivacyBudget.open(dir, 8, DAY);
        first.spend(NOON, 5);
        PrivacyBudget reopened = PrivacyBudget.open(dir, 8, DAY);
        assertThat(reopened.spentWithin(NOON)).isEqualTo(5.0);
        Instant weekAgo = NOON.minus(Duration.ofDays(7));
        assertThat(reopened.spentWithin(weekAgo)).isEqualTo(5.0);
        assertThat(reopened.allows(weekAgo, 4)).isFalse();
        // Spent while the clock is back: it counts as late as the latest report seen.
        reopened.spend(weekAgo, 3);
        assertThat(reopened.spentWithin(NOON.plus(Duration.ofHours(1)))).isEqualTo(8.0);
    }

    @Test
    void failsClosedWhenItCannotBeWritten() throws Exception {
        PrivacyBudget budget = PrivacyBudget.open(dir, 8, DAY);
        Files.createDirectories(dir.resolve(PrivacyBudget.FILE)); // a directory where the file goes
        assertThatThrownBy(() -> budget.spend(NOON, 1)).isInstanceOf(java.io.IOException.class);
    }

    @Test
    void withoutABudgetItStillCountsAndSaysSo() throws Exception {
        PrivacyBudget none = PrivacyBudget.open(dir, Double.POSITIVE_INFINITY, DAY);
        none.spend(NOON, 1e6);
        assertThat(none.allows(NOON, 1e9)).isTrue();
        assertThat(none.describe(NOON))
                .isEqualTo("user-level-epsilon-in-period 1000000.000000 of no budget per PT24H");
        assertThatThrownBy(() -> PrivacyBudget.open(dir, 0, DAY))
                .hasMessage("budget must be > 0 (or none), got 0.0");
    }

    @Test
    void refusesAFileWithANegativeEpsilonWithThatOneReason() throws Exception {
        Files.writeString(
                dir.resolve(PrivacyBudget.FILE), "format=1\nreports=1.0@1000,-2.0@2000\n");
        assertThatThrownBy(() -> PrivacyBudget.open(dir, 8, DAY))
                .isInstanceOf(java.io.IOException.class)
                .hasMessage(
                        "privacy budget file "
                                + dir.resolve(PrivacyBudget.FILE)
                                + " refused: report 2 has epsilon -2.0, not >= 0");
    }

    @Test
    void refusesAFileWithoutAReportsLineWithThatOneReason() throws Exception {
        Files.writeString(dir.resolve(PrivacyBudget.FILE), "format=1\nbudget=8.0\n");
        assertThatThrownBy(() -> PrivacyBudget.open(dir, 8, DAY))
                .isInstanceOf(java.io.IOException.class)
                .hasMessage(
                        "privacy budget file "
                                + dir.resolve(PrivacyBudget.FILE)
                                + " refused: no reports line");
    }

    @Test
    void aFileRefusedAfterOpeningRefusesTheNextSpendAndKeepsWhatWasHeld() throws Exception {
        PrivacyBudget budget = PrivacyBudget.open(dir, 8, DAY);
        budget.spend(NOON, 3);
        Files.writeString(dir.resolve(PrivacyBudget.FILE), "format=1\nreports=NaN@1000\n");
        assertThatThrownBy(() -> budget.spend(NOON, 1))
                .hasMessage(
                        "privacy budget file "
                                + dir.resolve(PrivacyBudget.FILE)
                                + " refused: report 1 has epsilon NaN, not >= 0");
        assertThat(budget.spentWithin(NOON)).isEqualTo(3.0);
        assertThat(Files.readString(dir.resolve(PrivacyBudget.FILE)))
                .isEqualTo("format=1\nreports=NaN@1000\n");
    }
}
