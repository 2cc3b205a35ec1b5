package dev.fieldprof.benchmarks.paths;

import static dev.fieldprof.benchmarks.paths.ChildTiming.Stream.ALL_EVENTS;
import static dev.fieldprof.benchmarks.paths.ChildTiming.Stream.CALLS_ONLY;
import static dev.fieldprof.benchmarks.paths.ChildTiming.Stream.WORKLOAD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PathTimingsTest {
    private static final double EPS = 1e-9;

    /** Each JVM's runs are {x - 1, x, x + 5}: its median is x, not its mean. */
    private static ChildTiming jvm(
            int round,
            TimedConfiguration c,
            ChildTiming.Stream s,
            long branches,
            long calls,
            double x) {
        return new ChildTiming(
                round, "gson", c, s, branches, calls, new double[] {x + 5, x - 1, x});
    }

    private static List<ChildTiming> workload(TimedConfiguration c, double... perRound) {
        List<ChildTiming> l = new ArrayList<>();
        for (int r = 0; r < perRound.length; r++) {
            l.add(jvm(r, c, WORKLOAD, 0, 0, perRound[r]));
        }
        return l;
    }

    /** Three rounds of both events configurations, 1000 branch decisions and 500 calls. */
    private static List<ChildTiming> events() {
        double[][] tracer = {{10, 11, 9}, {4, 5, 3}};
        double[][] dispatch = {{1, 1, 2}, {0.5, 0.5, 1}};
        List<ChildTiming> l = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            l.add(jvm(r, TimedConfiguration.EVENTS_TRACER, ALL_EVENTS, 1000, 500, tracer[0][r]));
            l.add(jvm(r, TimedConfiguration.EVENTS_TRACER, CALLS_ONLY, 0, 500, tracer[1][r]));
            l.add(
                    jvm(
                            r,
                            TimedConfiguration.EVENTS_DISPATCH,
                            ALL_EVENTS,
                            1000,
                            500,
                            dispatch[0][r]));
            l.add(jvm(r, TimedConfiguration.EVENTS_DISPATCH, CALLS_ONLY, 0, 500, dispatch[1][r]));
        }
        return l;
    }

    @Test
    void takesTheMedianOverJvmsOfEachJvmsMedian() {
        PathTimings t = new PathTimings(workload(TimedConfiguration.TRACER, 30, 20, 24, 50, 22));
        assertThat(t.perRound("gson", TimedConfiguration.TRACER, WORKLOAD))
                .containsExactly(30, 20, 24, 50, 22);
        assertThat(t.median("gson", TimedConfiguration.TRACER, WORKLOAD)).isEqualTo(24);
        assertThat(t.rounds("gson", TimedConfiguration.TRACER)).isEqualTo(5);
    }

    @Test
    void comparesMediansAndSpreadsTheRatioWithinEachRound() {
        List<ChildTiming> all = new ArrayList<>(workload(TimedConfiguration.TRACER, 30, 20, 24));
        all.addAll(workload(TimedConfiguration.PAP, 10, 12, 8));
        PathTimings t = new PathTimings(all);
        assertThat(t.ratio("gson", TimedConfiguration.TRACER, TimedConfiguration.PAP))
                .isCloseTo(2.4, within(EPS));
        PathTimings.Spread s =
                t.roundRatioSpread("gson", TimedConfiguration.TRACER, TimedConfiguration.PAP);
        assertThat(s.min()).isCloseTo(20.0 / 12, within(EPS));
        assertThat(s.max()).isCloseTo(3.0, within(EPS));
    }

    @Test
    void splitsTheTracersCostIntoBranchesAndCallsNetOfDispatch() {
        PathTimings.EventCosts e =
                new PathTimings(events()).eventCosts("gson", TimedConfiguration.EVENTS_TRACER);
        assertThat(e.branches()).isEqualTo(1000);
        assertThat(e.calls()).isEqualTo(500);
        assertThat(e.events()).isEqualTo(2000);
        // Medians: tracer 10 and 4 ms, no-op 1 and 0.5 ms.
        assertThat(e.callPairNs()).isCloseTo((4 - 0.5) * 1e6 / 500, within(EPS));
        assertThat(e.branchNs()).isCloseTo(((10 - 1) - (4 - 0.5)) * 1e6 / 1000, within(EPS));
        assertThat(e.dispatchNsPerEvent()).isCloseTo(1e6 / 2000, within(EPS));
        assertThat(e.handlerNsPerEvent()).isCloseTo(10e6 / 2000, within(EPS));
        assertThat(e.netNsPerEvent()).isCloseTo(9e6 / 2000, within(EPS));
        // Round by round: pairs 3.5, 4.5, 2 ms over 500; branches 5.5, 5.5, 5 ms over 1000.
        assertThat(e.callPairSpread().min()).isCloseTo(4000, within(EPS));
        assertThat(e.callPairSpread().max()).isCloseTo(9000, within(EPS));
        assertThat(e.branchSpread().min()).isCloseTo(5000, within(EPS));
        assertThat(e.branchSpread().max()).isCloseTo(5500, within(EPS));
    }

    @Test
    void takesPapsCostFromItsOwnReplaysAgainstTheSameDispatch() {
        List<ChildTiming> l = events();
        double[][] pap = {{3, 4, 5}, {1.5, 2, 1}};
        for (int r = 0; r < 3; r++) {
            l.add(jvm(r, TimedConfiguration.EVENTS_PAP, ALL_EVENTS, 1000, 500, pap[0][r]));
            l.add(jvm(r, TimedConfiguration.EVENTS_PAP, CALLS_ONLY, 0, 500, pap[1][r]));
        }
        PathTimings.EventCosts e =
                new PathTimings(l).eventCosts("gson", TimedConfiguration.EVENTS_PAP);
        // Medians: PAP 4 and 1.5 ms, no-op 1 and 0.5 ms.
        assertThat(e.callPairNs()).isCloseTo((1.5 - 0.5) * 1e6 / 500, within(EPS));
        assertThat(e.branchNs()).isCloseTo(((4 - 1) - (1.5 - 0.5)) * 1e6 / 1000, within(EPS));
        assertThat(e.handlerNsPerEvent()).isCloseTo(4e6 / 2000, within(EPS));
        assertThatThrownBy(
                        () ->
                                new PathTimings(l)
                                        .eventCosts("gson", TimedConfiguration.EVENTS_DISPATCH))
                .hasMessage("events-dispatch replays no handler's events");
        assertThatThrownBy(() -> new PathTimings(l).eventCosts("gson", TimedConfiguration.PAP))
                .hasMessage("pap replays no handler's events");
    }

    @Test
    void refusesToMixReplaysOfDifferentRuns() {
        List<ChildTiming> l = events();
        l.set(2, jvm(0, TimedConfiguration.EVENTS_DISPATCH, ALL_EVENTS, 999, 500, 1));
        assertThatThrownBy(
                        () ->
                                new PathTimings(l)
                                        .eventCosts("gson", TimedConfiguration.EVENTS_TRACER))
                .hasMessage("gson: the JVMs replayed recorded runs of different sizes");
    }

    @Test
    void refusesRatiosOfConfigurationsTimedInDifferentRounds() {
        List<ChildTiming> all = new ArrayList<>(workload(TimedConfiguration.TRACER, 30, 20));
        all.add(jvm(1, TimedConfiguration.PAP, WORKLOAD, 0, 0, 10));
        all.add(jvm(2, TimedConfiguration.PAP, WORKLOAD, 0, 0, 10));
        assertThatThrownBy(
                        () ->
                                new PathTimings(all)
                                        .roundRatioSpread(
                                                "gson",
                                                TimedConfiguration.TRACER,
                                                TimedConfiguration.PAP))
                .hasMessage("gson: tracer and pap were timed in different rounds");
    }

    @Test
    void namesAConfigurationThatWasNotTimed() {
        PathTimings t = new PathTimings(workload(TimedConfiguration.TRACER, 30));
        assertThat(t.covers("gson")).isFalse();
        assertThatThrownBy(() -> t.median("gson", TimedConfiguration.PAP, WORKLOAD))
                .hasMessage("no timing of gson/pap/workload was collected");
    }
}
