package dev.fieldprof.benchmarks.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ChildTimingTest {
    private static final String LINE =
            "fieldprof-timing round=3 program=gson configuration=events-tracer stream=calls-only"
                    + " branches=0 calls=29234 ms=0.1,31.25,1.0E-4";

    @Test
    void writesTheDocumentedLine() {
        ChildTiming t =
                new ChildTiming(
                        3,
                        "gson",
                        TimedConfiguration.EVENTS_TRACER,
                        ChildTiming.Stream.CALLS_ONLY,
                        0,
                        29234,
                        new double[] {0.1, 31.25, 1e-4});
        assertThat(t.toLine()).isEqualTo(LINE);
    }

    @Test
    void readsBackEveryFieldExactly() {
        double third = 1.0 / 3;
        ChildTiming t =
                new ChildTiming(
                        4,
                        "commons-lang3",
                        TimedConfiguration.PAP,
                        ChildTiming.Stream.WORKLOAD,
                        852055,
                        237709,
                        new double[] {14.0, third, 0.0});
        ChildTiming back = ChildTiming.parse(t.toLine());
        assertThat(back.round()).isEqualTo(4);
        assertThat(back.program()).isEqualTo("commons-lang3");
        assertThat(back.configuration()).isEqualTo(TimedConfiguration.PAP);
        assertThat(back.stream()).isEqualTo(ChildTiming.Stream.WORKLOAD);
        assertThat(back.branches()).isEqualTo(852055);
        assertThat(back.calls()).isEqualTo(237709);
        assertThat(back.millis()).containsExactly(14.0, third, 0.0);
        assertThat(back.medianMillis()).isEqualTo(third);
    }

    @Test
    void readsKeysInAnyOrder() {
        ChildTiming t =
                ChildTiming.parse(
                        "fieldprof-timing ms=2.0,4.0 calls=1 branches=2 stream=all-events"
                                + " configuration=events-dispatch program=guava round=0");
        assertThat(t.configuration()).isEqualTo(TimedConfiguration.EVENTS_DISPATCH);
        assertThat(t.stream()).isEqualTo(ChildTiming.Stream.ALL_EVENTS);
        assertThat(t.medianMillis()).isEqualTo(3.0);
    }

    @Test
    void recognizesOnlyLinesWithTheMarker() {
        assertThat(ChildTiming.isTimingLine(LINE)).isTrue();
        assertThat(ChildTiming.isTimingLine("fieldprof-timings round=3")).isFalse();
        assertThat(ChildTiming.isTimingLine("SLF4J: no providers")).isFalse();
    }

    @Test
    void rejectsMalformedLinesNamingTheProblem() {
        assertThatThrownBy(() -> ChildTiming.parse(LINE.replace("fieldprof-timing", "timing")))
                .hasMessageStartingWith("timing line must start with 'fieldprof-timing'");
        assertThatThrownBy(() -> ChildTiming.parse(LINE.replace(" calls=29234", "")))
                .hasMessageStartingWith("timing line lacks 'calls='");
        assertThatThrownBy(() -> ChildTiming.parse(LINE + " round=4"))
                .hasMessage("timing line: 'round' given twice");
        assertThatThrownBy(() -> ChildTiming.parse(LINE + " seed=1"))
                .hasMessage("timing line: unexpected token 'seed=1'");
        assertThatThrownBy(() -> ChildTiming.parse(LINE.replace("calls=29234", "calls=2.5")))
                .hasMessage("timing line: 'calls' is not a whole number: '2.5'");
        assertThatThrownBy(() -> ChildTiming.parse(LINE.replace("ms=0.1,", "ms=-0.1,")))
                .hasMessageStartingWith(
                        "timing line: 'ms' is not a comma list of finite non-negative numbers");
        assertThatThrownBy(() -> ChildTiming.parse(LINE.replace("ms=0.1,", "ms=NaN,")))
                .hasMessageStartingWith("timing line: 'ms' is not a comma list");
        assertThatThrownBy(() -> ChildTiming.parse(LINE.replace("events-tracer", "jit")))
                .hasMessage(
                        "unknown timed configuration 'jit'; expected one of original, probes-off,"
                                + " tracer, tracer-uniform, blpp, pap, staged, staged-inline,"
                                + " raw-capture, events-dispatch, events-tracer, events-pap,"
                                + " events-staged");
        assertThatThrownBy(() -> ChildTiming.parse(LINE.replace("calls-only", "calls")))
                .hasMessage(
                        "timing line: unknown stream 'calls'; expected one of workload,"
                                + " all-events, calls-only, process");
    }

    @Test
    void rejectsATimingWithoutMeasuredRuns() {
        assertThatThrownBy(
                        () ->
                                new ChildTiming(
                                        0,
                                        "gson",
                                        TimedConfiguration.PAP,
                                        ChildTiming.Stream.WORKLOAD,
                                        0,
                                        0,
                                        new double[0]))
                .hasMessage("a timing needs at least one measured run");
    }
}
