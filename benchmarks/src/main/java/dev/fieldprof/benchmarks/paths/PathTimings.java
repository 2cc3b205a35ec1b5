package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.benchmarks.paths.ChildTiming.Stream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The path timings of all child JVMs ({@link AlternatingJvms}), summarized: each child's figure is
 * the median of its measured runs; a configuration's figure is the median of its children's
 * figures, one per round. Ratios compare these medians; their spread is the min..max of the same
 * ratio taken within each round (both children of a round ran minutes apart at most, under the same
 * load).
 *
 * <p>The tracer's cost per event net of probe dispatch comes from the recorded events of the
 * workload's measured run, replayed through {@code PathProbes} into the tracer (T) and into a
 * handler that does nothing (D), each as all events (a) and as the enters and exits alone (c);
 * PAP's the same way, with PAP in place of the tracer:
 *
 * <ul>
 *   <li>ns per enter/exit pair = (T<sub>c</sub> - D<sub>c</sub>) / calls;
 *   <li>ns per branch decision = ((T<sub>a</sub> - D<sub>a</sub>) - (T<sub>c</sub> -
 *       D<sub>c</sub>)) / branches, the cost the branch decisions add to the same call tree.
 * </ul>
 *
 * Subtracting D removes the dispatch (the handler lookup, the mask check, the call) and the replay
 * loop alike; the real run's mix of methods, call sites and outcomes stays, where a synthetic
 * stream would pick one.
 */
final class PathTimings {
    /** Smallest and largest of a figure taken round by round. */
    record Spread(double min, double max) {
        static Spread of(double[] values) {
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (double v : values) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            return new Spread(min, max);
        }
    }

    /**
     * A handler's cost per event (the tracer's or PAP's), medians over the JVMs and their spread
     * over rounds.
     *
     * @param dispatchNsPerEvent the replay into the no-op handler, ns per event (dispatch and
     *     replay loop)
     * @param handlerNsPerEvent the replay into the handler (the tracer or PAP), ns per event
     */
    record EventCosts(
            long branches,
            long calls,
            double dispatchNsPerEvent,
            double handlerNsPerEvent,
            double branchNs,
            Spread branchSpread,
            double callPairNs,
            Spread callPairSpread) {

        long events() {
            return branches + 2 * calls;
        }

        /** The handler's own ns per event, all events together, net of dispatch. */
        double netNsPerEvent() {
            return handlerNsPerEvent - dispatchNsPerEvent;
        }
    }

    private final List<ChildTiming> timings;

    PathTimings(List<ChildTiming> timings) {
        this.timings = List.copyOf(timings);
    }

    /** True if every configuration of {@code program} was timed. */
    boolean covers(String program) {
        for (TimedConfiguration c : TimedConfiguration.values()) {
            if (matching(program, c, c.workload ? Stream.WORKLOAD : Stream.ALL_EVENTS).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Rounds timed for {@code program}'s configuration (JVMs per configuration). */
    int rounds(String program, TimedConfiguration c) {
        return matching(program, c, c.workload ? Stream.WORKLOAD : Stream.ALL_EVENTS).size();
    }

    /** The median over rounds of each JVM's median, in ms. */
    double median(String program, TimedConfiguration c, Stream s) {
        return WorkloadCpuTime.median(perRound(program, c, s));
    }

    /** Each round's JVM median, in ms, in round order. */
    double[] perRound(String program, TimedConfiguration c, Stream s) {
        List<ChildTiming> m = matching(program, c, s);
        if (m.isEmpty()) {
            throw new IllegalStateException(
                    "no timing of " + program + "/" + c.id + "/" + s.id + " was collected");
        }
        return m.stream().mapToDouble(ChildTiming::medianMillis).toArray();
    }

    /** Workload CPU time of {@code a} over that of {@code b}: ratio of the medians. */
    double ratio(String program, TimedConfiguration a, TimedConfiguration b) {
        return median(program, a, Stream.WORKLOAD) / median(program, b, Stream.WORKLOAD);
    }

    /** The same ratio within each round, smallest and largest. */
    Spread roundRatioSpread(String program, TimedConfiguration a, TimedConfiguration b) {
        double[] x = perRound(program, a, Stream.WORKLOAD);
        double[] y = perRound(program, b, Stream.WORKLOAD);
        checkSameRounds(program, a, b, Stream.WORKLOAD);
        double[] r = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            r[i] = x[i] / y[i];
        }
        return Spread.of(r);
    }

    /**
     * The ns per branch decision and per enter/exit pair net of dispatch of the handler that the
     * replaying configuration {@code t} ({@link TimedConfiguration#EVENTS_TRACER} or {@link
     * TimedConfiguration#EVENTS_PAP}) installs.
     */
    EventCosts eventCosts(String program, TimedConfiguration t) {
        if (t.workload || t == TimedConfiguration.EVENTS_DISPATCH) {
            throw new IllegalArgumentException(t.id + " replays no handler's events");
        }
        TimedConfiguration d = TimedConfiguration.EVENTS_DISPATCH;
        checkSameRounds(program, t, d, Stream.ALL_EVENTS);
        checkSameRounds(program, t, d, Stream.CALLS_ONLY);
        ChildTiming counts = matching(program, t, Stream.ALL_EVENTS).get(0);
        long branches = counts.branches();
        long calls = counts.calls();
        for (ChildTiming x : timings) {
            if (x.program().equals(program)
                    && x.stream() == Stream.ALL_EVENTS
                    && (x.branches() != branches || x.calls() != calls)) {
                throw new IllegalStateException(
                        program + ": the JVMs replayed recorded runs of different sizes");
            }
        }
        double[] ta = perRound(program, t, Stream.ALL_EVENTS);
        double[] tc = perRound(program, t, Stream.CALLS_ONLY);
        double[] da = perRound(program, d, Stream.ALL_EVENTS);
        double[] dc = perRound(program, d, Stream.CALLS_ONLY);
        double[] branchNs = new double[ta.length];
        double[] pairNs = new double[ta.length];
        for (int i = 0; i < ta.length; i++) {
            pairNs[i] = nsPer(tc[i] - dc[i], calls);
            branchNs[i] = nsPer((ta[i] - da[i]) - (tc[i] - dc[i]), branches);
        }
        double mta = WorkloadCpuTime.median(ta);
        double mtc = WorkloadCpuTime.median(tc);
        double mda = WorkloadCpuTime.median(da);
        double mdc = WorkloadCpuTime.median(dc);
        long events = branches + 2 * calls;
        return new EventCosts(
                branches,
                calls,
                nsPer(mda, events),
                nsPer(mta, events),
                nsPer((mta - mda) - (mtc - mdc), branches),
                Spread.of(branchNs),
                nsPer(mtc - mdc, calls),
                Spread.of(pairNs));
    }

    /**
     * Segments coded and dropped by a staged configuration in all its JVMs' measured runs (its
     * process stream's branches and calls).
     */
    long[] segments(String program, TimedConfiguration c) {
        long[] out = new long[2];
        for (ChildTiming t : matching(program, c, Stream.PROCESS)) {
            out[0] += t.branches();
            out[1] += t.calls();
        }
        return out;
    }

    /** Milliseconds over {@code n} events, in ns per event. */
    private static double nsPer(double millis, long n) {
        return n == 0 ? Double.NaN : millis * 1e6 / n;
    }

    private void checkSameRounds(
            String program, TimedConfiguration a, TimedConfiguration b, Stream s) {
        List<Integer> ra = matching(program, a, s).stream().map(ChildTiming::round).toList();
        List<Integer> rb = matching(program, b, s).stream().map(ChildTiming::round).toList();
        if (!ra.equals(rb)) {
            throw new IllegalStateException(
                    program + ": " + a.id + " and " + b.id + " were timed in different rounds");
        }
    }

    private List<ChildTiming> matching(String program, TimedConfiguration c, Stream s) {
        List<ChildTiming> m = new ArrayList<>();
        for (ChildTiming t : timings) {
            if (t.program().equals(program) && t.configuration() == c && t.stream() == s) {
                m.add(t);
            }
        }
        m.sort(Comparator.comparingInt(ChildTiming::round));
        return m;
    }
}
