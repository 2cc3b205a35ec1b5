package dev.fieldprof.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RankedMethod;
import dev.fieldprof.schemas.SolveStats;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MonitorHistoryTest {

    /** A window of three methods; se 0.05 so that every band is ĝ ± 0.098. */
    static EstimateWindow window(
            long endMillis, boolean cumulative, List<Double> normalized, List<Integer> hot) {
        return EstimateWindow.newBuilder()
                .setAppVersion("app:1")
                .setConfigId("default")
                .setWindowStartMillis(Instant.ofEpochMilli(endMillis - 10_000))
                .setWindowEndMillis(Instant.ofEpochMilli(endMillis))
                .setCumulative(cumulative)
                .setReports(endMillis / 1000)
                .setK(200)
                .setEpsilon(2.0)
                .setT(10)
                .setNormalized(normalized)
                .setStandardError(cumulative ? 0.01 : 0.05)
                .setConsistent(List.of(0.5, 0.3, 0.2))
                .setHotThreshold(0.5)
                .setHotMethods(hot)
                .setTop(
                        List.of(
                                new RankedMethod(0, "<a.A: void hot()>", 0.5, normalized.get(0)),
                                new RankedMethod(1, "<a.B: void warm()>", 0.3, normalized.get(1))))
                .setSolve(new SolveStats(2.5, 1e-12, 1, 0.0))
                .setEmittedAtMillis(Instant.ofEpochMilli(endMillis + 900))
                .build();
    }

    static EstimateWindow revision(EstimateWindow window, int revision, long reports) {
        EstimateWindow revised = EstimateWindow.newBuilder(window).build();
        revised.setRevision(revision);
        revised.setReports(reports);
        return revised;
    }

    @Test
    void aRevisedWindowShowsItsLatestCountAndRevisionAndKeepsItsFirstLag() {
        MonitorHistory history = new MonitorHistory(2, 1, 60_000);
        EstimateWindow first = window(10_000, false, List.of(0.4, 0.3, 0.3), List.of(0));
        history.acceptEstimate(first, 11_000);
        history.acceptEstimate(revision(first, 2, 12), 50_000);
        // An older revision read after the newer one changes nothing.
        history.acceptEstimate(first, 60_000);

        assertThat(history.state(null).streams().get(0).windows())
                .extracting(
                        MonitorState.Window::end,
                        MonitorState.Window::reports,
                        MonitorState.Window::revision,
                        MonitorState.Window::lagMillis)
                .containsExactly(tuple(10_000L, 12L, 2, 1_000L));
    }

    @Test
    void carriesTheCentralGuaranteeOfAShuffledWindowAndNoneOfALocalOne() {
        MonitorHistory history = new MonitorHistory(2, 1, 60_000);
        EstimateWindow shuffled = window(10_000, false, List.of(0.4, 0.3, 0.3), List.of(0));
        shuffled.setShuffledBatchSizes(List.of(1000));
        shuffled.setCentralEpsilon(0.65);
        shuffled.setCentralDelta(1e-6);
        history.acceptEstimate(shuffled, 11_000);
        history.acceptEstimate(window(20_000, false, List.of(0.5, 0.2, 0.3), List.of(0)), 21_000);

        assertThat(history.state(null).streams().get(0).windows())
                .extracting(
                        MonitorState.Window::end,
                        MonitorState.Window::centralEpsilon,
                        MonitorState.Window::centralDelta)
                .containsExactly(tuple(10_000L, 0.65, 1e-6), tuple(20_000L, 0.0, 0.0));
    }

    @Test
    void drawsTheLastWindowsWithBandsOf196StandardErrors() {
        MonitorHistory history = new MonitorHistory(2, 1, 60_000);
        history.acceptEstimate(window(10_000, false, List.of(0.4, 0.3, 0.3), List.of(0)), 11_000);
        history.acceptEstimate(window(20_000, false, List.of(0.5, 0.2, 0.3), List.of(0)), 21_500);
        history.acceptEstimate(window(30_000, false, List.of(0.6, 0.1, 0.3), List.of(0)), 32_000);
        history.acceptEstimate(window(30_000, true, List.of(0.55, 0.2, 0.25), List.of(0)), 32_000);

        MonitorState.Stream stream = history.state(null).streams().get(0);
        assertThat(stream.windows())
                .as("the last N = 2 windows, oldest first, with reports, half-width and lag")
                .extracting(
                        MonitorState.Window::end,
                        MonitorState.Window::reports,
                        MonitorState.Window::halfWidth95,
                        MonitorState.Window::lagMillis)
                .containsExactly(
                        tuple(20_000L, 20L, 0.098, 1_500L), tuple(30_000L, 30L, 0.098, 2_000L));
        assertThat(stream.series()).hasSize(1);
        MonitorState.Series hot = stream.series().get(0);
        assertThat(hot.id()).isZero();
        assertThat(hot.signature()).isEqualTo("<a.A: void hot()>");
        assertThat(hot.normalized()).containsExactly(0.5, 0.6);
        assertThat(hot.lower()).containsExactly(0.5 - 1.96 * 0.05, 0.6 - 1.96 * 0.05);
        assertThat(hot.upper()).containsExactly(0.5 + 1.96 * 0.05, 0.6 + 1.96 * 0.05);
        assertThat(hot.consistent()).containsExactly(0.5, 0.5);
        assertThat(hot.cumulative())
                .as("the cumulative ĝ where one ends with the window")
                .containsExactly(null, 0.55);
        assertThat(stream.cumulative().methods())
                .extracting(
                        MonitorState.CumulativeMethod::id,
                        MonitorState.CumulativeMethod::lower,
                        MonitorState.CumulativeMethod::upper)
                .containsExactly(tuple(0, 0.55 - 0.0196, 0.55 + 0.0196));
        assertThat(stream.privacy())
                .as("per-report user-level ε = ε·k/t = 2·200/10")
                .isEqualTo(new MonitorState.Privacy(2.0, 10, 200, 40.0, 0));
    }

    /**
     * A user-level window carries one standard error per method: each band uses its method's, the
     * window's half-width is the widest band; a window written before v4 (no per-method errors)
     * keeps the common one for every band.
     */
    @Test
    void drawsEachMethodsBandWithItsOwnStandardError() {
        MonitorHistory history = new MonitorHistory(2, 2, 60_000);
        EstimateWindow old = window(10_000, false, List.of(0.4, 0.3, 0.3), List.of(0));
        EstimateWindow perMethod = window(20_000, false, List.of(0.5, 0.2, 0.3), List.of(0));
        perMethod.setStandardErrors(List.of(0.08, 0.06, 0.05));
        EstimateWindow cumulative = window(20_000, true, List.of(0.45, 0.25, 0.3), List.of(0));
        cumulative.setStandardErrors(List.of(0.02, 0.015, 0.01));
        history.acceptEstimate(old, 11_000);
        history.acceptEstimate(perMethod, 21_000);
        history.acceptEstimate(cumulative, 21_000);

        MonitorState.Stream stream = history.state(null).streams().get(0);
        assertThat(stream.windows())
                .extracting(MonitorState.Window::standardError, MonitorState.Window::halfWidth95)
                .containsExactly(tuple(0.05, 0.098), tuple(0.08, 1.96 * 0.08));
        MonitorState.Series hot = stream.series().get(0);
        MonitorState.Series warm = stream.series().get(1);
        assertThat(hot.lower()).containsExactly(0.4 - 1.96 * 0.05, 0.5 - 1.96 * 0.08);
        assertThat(hot.upper()).containsExactly(0.4 + 1.96 * 0.05, 0.5 + 1.96 * 0.08);
        assertThat(warm.lower()).containsExactly(0.3 - 1.96 * 0.05, 0.2 - 1.96 * 0.06);
        assertThat(warm.upper()).containsExactly(0.3 + 1.96 * 0.05, 0.2 + 1.96 * 0.06);
        assertThat(stream.cumulative().standardError()).isEqualTo(0.02);
        assertThat(stream.cumulative().methods())
                .extracting(
                        MonitorState.CumulativeMethod::id,
                        MonitorState.CumulativeMethod::lower,
                        MonitorState.CumulativeMethod::upper)
                .containsExactly(
                        tuple(0, 0.45 - 1.96 * 0.02, 0.45 + 1.96 * 0.02),
                        tuple(1, 0.25 - 1.96 * 0.015, 0.25 + 1.96 * 0.015));
    }

    @Test
    void marksMethodsEnteringAndLeavingTheHotSet() {
        MonitorHistory history = new MonitorHistory(10, 2, 60_000);
        history.acceptEstimate(window(10_000, false, List.of(0.4, 0.3, 0.3), List.of(0)), 10_000);
        history.acceptEstimate(
                window(20_000, false, List.of(0.4, 0.3, 0.3), List.of(0, 1)), 20_000);
        history.acceptEstimate(
                window(30_000, false, List.of(0.4, 0.3, 0.3), List.of(0, 1)), 30_000);
        history.acceptEstimate(window(40_000, false, List.of(0.4, 0.3, 0.3), List.of(2)), 40_000);

        MonitorState.Stream stream = history.state(null).streams().get(0);
        assertThat(stream.hotChanges())
                .extracting(MonitorState.HotChange::end, c -> ids(c.entered()), c -> ids(c.left()))
                .containsExactly(
                        tuple(20_000L, List.of(1), List.of()),
                        tuple(40_000L, List.of(2), List.of(0, 1)));
        assertThat(stream.hotChanges().get(1).entered().get(0).signature())
                .as("a method without a known signature is named by its id")
                .isEqualTo("#2");
        assertThat(stream.hot()).extracting(MonitorState.Method::id).containsExactly(2);
    }

    @Test
    void pinsTheMethodsWhoseSignatureContainsTheSearch() {
        MonitorHistory history = new MonitorHistory(10, 1, 60_000);
        history.acceptSignatures(
                "app:1", List.of("<a.A: void hot()>", "<a.B: void warm()>", "<a.C: void parse()>"));
        history.acceptEstimate(window(10_000, false, List.of(0.4, 0.3, 0.3), List.of(0)), 10_000);

        List<MonitorState.Series> series = history.state("PARSE").streams().get(0).series();
        assertThat(series)
                .extracting(MonitorState.Series::id, MonitorState.Series::pinned)
                .containsExactly(tuple(0, false), tuple(2, true));
        assertThat(series.get(1).signature()).isEqualTo("<a.C: void parse()>");
    }

    @Test
    void countsDeadLettersPerReasonInTimeBuckets() {
        MonitorHistory history = new MonitorHistory(10, 1, 10_000);
        history.acceptDeadLetter(DeadLetterReason.UNDECODABLE, 1_000);
        history.acceptDeadLetter(DeadLetterReason.UNDECODABLE, 9_999);
        history.acceptDeadLetter(DeadLetterReason.LATE, 10_000);
        history.acceptDeadLetter(DeadLetterReason.UNDECODABLE, 25_000);

        MonitorState.DeadLetters letters = history.state(null).deadLetters();
        assertThat(letters.total()).isEqualTo(4);
        assertThat(letters.byReason()).isEqualTo(Map.of("UNDECODABLE", 3L, "LATE", 1L));
        assertThat(letters.buckets())
                .extracting(
                        MonitorState.DeadLetterBucket::start,
                        MonitorState.DeadLetterBucket::byReason)
                .containsExactly(
                        tuple(0L, Map.of("UNDECODABLE", 2L)),
                        tuple(10_000L, Map.of("LATE", 1L)),
                        tuple(20_000L, Map.of("UNDECODABLE", 1L)));
    }

    @Test
    void countsEdgeModelsPerAppVersion() {
        MonitorHistory history = new MonitorHistory(10, 1, 10_000);
        history.acceptEdgeModel("app:1", 1, 100);
        history.acceptEdgeModel("app:1", 2, 200);
        assertThat(history.state(null).edgeModels())
                .containsExactly(new MonitorState.EdgeModels("app:1", 2, 2, 200));
    }

    @Test
    void jobHealthIsNotReadUntilAReadingArrivesAndAnEqualReadingChangesNothing() {
        MonitorHistory history = new MonitorHistory(2, 1, 60_000);
        assertThat(history.state(null).jobs())
                .isEqualTo(new MonitorState.JobHealth(null, 0, null, null, null));

        MonitorState.JobHealth reading =
                new MonitorState.JobHealth("http://127.0.0.1:8081", 1, 7L, 1500L, null);
        history.acceptJobHealth(reading);
        long version = history.version();
        history.acceptJobHealth(
                new MonitorState.JobHealth("http://127.0.0.1:8081", 1, 7L, 1500L, null));

        assertThat(history.state(null).jobs()).isEqualTo(reading);
        assertThat(history.version()).as("no new state to push").isEqualTo(version);
        history.acceptJobHealth(
                new MonitorState.JobHealth("http://127.0.0.1:8081", 1, 0L, 0L, null));
        assertThat(history.version()).isEqualTo(version + 1);
    }

    @Test
    void comparesTwoCumulativeEstimatesWithTheirIntervals() {
        EstimateWindow first = window(30_000, true, List.of(0.5, 0.3, 0.2), List.of(0));
        EstimateWindow second = window(30_000, true, List.of(0.6, 0.3, 0.1), List.of(0));
        ReleaseComparison.Table table = ReleaseComparison.of(first, null, second, null, 0.05, 10);
        ReleaseComparison.Row hot =
                table.rows().stream()
                        .filter(r -> r.signature().equals("<a.A: void hot()>"))
                        .findFirst()
                        .orElseThrow();
        double se = Math.sqrt(2) * 0.01;
        assertThat(hot.difference()).isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-15));
        assertThat(hot.lower95())
                .isCloseTo(
                        0.1 - 1.959963984540054 * se, org.assertj.core.data.Offset.offset(1e-15));
        assertThat(hot.upper95())
                .isCloseTo(
                        0.1 + 1.959963984540054 * se, org.assertj.core.data.Offset.offset(1e-15));
        assertThat(hot.significant()).isTrue();
        assertThat(table.rows()).hasSize(3);
    }

    private static List<Integer> ids(List<MonitorState.Method> methods) {
        return methods.stream().map(MonitorState.Method::id).toList();
    }
}
