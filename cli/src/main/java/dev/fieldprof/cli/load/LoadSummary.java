package dev.fieldprof.cli.load;

import dev.fieldprof.cli.load.PipelineObserver.CommittedWindow;
import dev.fieldprof.cli.load.PipelineObserver.Observation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The figures of one load run, computed from what the devices made and what {@link
 * PipelineObserver} saw.
 *
 * <p>Latency is per report: the time its estimate window was committed to the estimates topic (seen
 * by a read_committed consumer) minus the broker's append time of the report. It includes the wait
 * for the window to end (a report early in a 10 s window waits about 10 s) and is the time until a
 * report shows in a published estimate. The window lag (window end → committed) is the pipeline's
 * own delay: out-of-orderness, the watermark's progress, the projection, and the wait for the
 * checkpoint that commits the sink's transaction. The counted rate is the job's throughput: the
 * reports of the windows that lie wholly inside the sending period, but the first, over the time
 * between the first and the last of those windows' commits. A job that keeps up commits a full
 * window every window length (its counted rate is the sent rate); one that falls behind commits
 * them ever later, its lag grows from window to window and its counted rate stays below.
 *
 * @param devices simulated devices
 * @param targetRate reports per second asked for
 * @param sendMillis how long the devices sent
 * @param made reports the devices made (numbered and handed to a transport)
 * @param acknowledged reports the broker acknowledged to the transports
 * @param dropped reports a transport dropped (queue full, rejected)
 * @param distinctOnTopic distinct reports of the run found on the report topic
 * @param recordsOnTopic the run's records on the report topic, re-sent copies included
 * @param counted reports summed over the run's estimate windows
 * @param windows estimate windows of the run
 * @param deadLetters dead letters of the run
 * @param countedPerSecond the job's throughput as defined above, NaN with fewer than two full
 *     windows
 * @param latencyMillis report → committed estimate: p50, p95, p99, max (empty when none counted)
 * @param lagMillis window end → committed: p50, p95, max over the windows
 * @param firstLagMillis lag of the first full window (NaN without one)
 * @param lastLagMillis lag of the last full window (NaN without one)
 * @param uncounted distinct reports on the topic whose time falls in no committed window (they have
 *     no latency)
 */
record LoadSummary(
        int devices,
        double targetRate,
        long sendMillis,
        long made,
        long acknowledged,
        long dropped,
        long distinctOnTopic,
        long recordsOnTopic,
        long counted,
        int windows,
        long deadLetters,
        double countedPerSecond,
        long[] latencyMillis,
        long[] lagMillis,
        double firstLagMillis,
        double lastLagMillis,
        long uncounted) {

    static LoadSummary of(
            int devices,
            double targetRate,
            long sendStartMillis,
            long sendEndMillis,
            long made,
            long acknowledged,
            long dropped,
            Observation observation) {
        List<CommittedWindow> bySeen = new ArrayList<>(observation.windows());
        bySeen.sort(Comparator.comparingLong(CommittedWindow::seenMillis));
        // For latency the first commit of a window's bounds counts.
        List<CommittedWindow> byStart = new ArrayList<>(bySeen);
        byStart.sort(Comparator.comparingLong(CommittedWindow::startMillis));

        long[] latencies = new long[observation.appendTimes().length];
        int counted = 0;
        for (long append : observation.appendTimes()) {
            CommittedWindow window = containing(byStart, append);
            if (window != null) {
                latencies[counted++] = window.seenMillis() - append;
            }
        }
        long[] latency = Arrays.copyOf(latencies, counted);
        Arrays.sort(latency);

        long[] lags = bySeen.stream().mapToLong(w -> w.seenMillis() - w.endMillis()).toArray();
        Arrays.sort(lags);

        List<CommittedWindow> full =
                bySeen.stream()
                        .filter(w -> w.startMillis() >= sendStartMillis)
                        .filter(w -> w.endMillis() <= sendEndMillis)
                        .toList();
        double rate = Double.NaN;
        double firstLag = Double.NaN;
        double lastLag = Double.NaN;
        if (!full.isEmpty()) {
            CommittedWindow first = full.get(0);
            CommittedWindow last = full.get(full.size() - 1);
            firstLag = first.seenMillis() - first.endMillis();
            lastLag = last.seenMillis() - last.endMillis();
            if (full.size() >= 2 && last.seenMillis() > first.seenMillis()) {
                long after = full.stream().skip(1).mapToLong(CommittedWindow::reports).sum();
                rate = after * 1000.0 / (last.seenMillis() - first.seenMillis());
            }
        }
        return new LoadSummary(
                devices,
                targetRate,
                sendEndMillis - sendStartMillis,
                made,
                acknowledged,
                dropped,
                observation.appendTimes().length,
                observation.recordsOnTopic(),
                observation.counted(),
                bySeen.size(),
                observation.deadLetters(),
                rate,
                latency.length == 0
                        ? new long[0]
                        : new long[] {
                            percentile(latency, 0.50),
                            percentile(latency, 0.95),
                            percentile(latency, 0.99),
                            latency[latency.length - 1]
                        },
                lags.length == 0
                        ? new long[0]
                        : new long[] {
                            percentile(lags, 0.50), percentile(lags, 0.95), lags[lags.length - 1]
                        },
                firstLag,
                lastLag,
                observation.appendTimes().length - counted);
    }

    /** The earliest-starting window with start ≤ time < end, or null. */
    private static CommittedWindow containing(List<CommittedWindow> byStart, long time) {
        int low = 0;
        int high = byStart.size() - 1;
        int candidate = -1;
        while (low <= high) { // the last window starting at or before time
            int mid = (low + high) >>> 1;
            if (byStart.get(mid).startMillis() <= time) {
                candidate = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        // Windows of one app version do not overlap; walk back over equal starts to the first.
        while (candidate > 0
                && byStart.get(candidate - 1).startMillis()
                        == byStart.get(candidate).startMillis()) {
            candidate--;
        }
        if (candidate < 0 || time >= byStart.get(candidate).endMillis()) {
            return null;
        }
        return byStart.get(candidate);
    }

    /**
     * Nearest-rank percentile of sorted values: the smallest value with ≥ q of them at or below.
     */
    static long percentile(long[] sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    double sentPerSecond() {
        return sendMillis == 0 ? 0 : made * 1000.0 / sendMillis;
    }

    /** Every report made is on the topic once and counted once, and none became a dead letter. */
    boolean exact() {
        return counted == made && distinctOnTopic == made && deadLetters == 0 && dropped == 0;
    }

    List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add(
                format(
                        "sent      %,d reports from %d devices in %.1f s: %.1f reports/s (target"
                                + " %.0f/s); broker acknowledged %,d, dropped %d",
                        made,
                        devices,
                        sendMillis / 1000.0,
                        sentPerSecond(),
                        targetRate,
                        acknowledged,
                        dropped));
        lines.add(
                format(
                        "on topic  %,d distinct reports (%,d records: %,d re-sent copies)",
                        distinctOnTopic, recordsOnTopic, recordsOnTopic - distinctOnTopic));
        lines.add(
                format(
                        "counted   %,d reports in %d estimate windows; job throughput %s;"
                                + " dead letters %d",
                        counted,
                        windows,
                        Double.isNaN(countedPerSecond)
                                ? "n/a (fewer than two full windows)"
                                : format("%.1f reports/s", countedPerSecond),
                        deadLetters));
        lines.add(
                latencyMillis.length == 0
                        ? "latency   n/a: no report was counted"
                        : format(
                                "latency   report appended → its window committed: p50 %s  p95 %s"
                                        + "  p99 %s  max %s",
                                seconds(latencyMillis[0]),
                                seconds(latencyMillis[1]),
                                seconds(latencyMillis[2]),
                                seconds(latencyMillis[3])));
        if (lagMillis.length > 0) {
            lines.add(
                    format(
                            "lag       window end → committed: p50 %s  p95 %s  max %s; first full"
                                    + " window %s, last %s",
                            seconds(lagMillis[0]),
                            seconds(lagMillis[1]),
                            seconds(lagMillis[2]),
                            Double.isNaN(firstLagMillis) ? "n/a" : seconds((long) firstLagMillis),
                            Double.isNaN(lastLagMillis) ? "n/a" : seconds((long) lastLagMillis)));
        }
        lines.add(
                exact()
                        ? format(
                                "exact     every report counted once: %,d made = %,d on the topic"
                                        + " = %,d counted, no dead letter",
                                made, distinctOnTopic, counted)
                        : format(
                                "NOT EXACT %,d made, %,d on the topic, %,d counted, %d dead"
                                        + " letters, %d dropped",
                                made, distinctOnTopic, counted, deadLetters, dropped));
        return lines;
    }

    /** The figures as one JSON object (for scripts such as benchmarks/load-curve.sh). */
    String json() {
        return format(
                "{\"devices\": %d, \"targetRate\": %.1f, \"sendSeconds\": %.3f, \"made\": %d,"
                        + " \"sentPerSecond\": %.1f, \"acknowledged\": %d, \"dropped\": %d,"
                        + " \"distinctOnTopic\": %d, \"recordsOnTopic\": %d, \"counted\": %d,"
                        + " \"windows\": %d, \"deadLetters\": %d, \"countedPerSecond\": %s,"
                        + " \"latencyMillis\": {%s}, \"lagMillis\": {%s}, \"firstLagMillis\": %s,"
                        + " \"lastLagMillis\": %s, \"exact\": %b}",
                devices,
                targetRate,
                sendMillis / 1000.0,
                made,
                sentPerSecond(),
                acknowledged,
                dropped,
                distinctOnTopic,
                recordsOnTopic,
                counted,
                windows,
                deadLetters,
                number(countedPerSecond),
                latencyMillis.length == 0
                        ? ""
                        : format(
                                "\"p50\": %d, \"p95\": %d, \"p99\": %d, \"max\": %d",
                                latencyMillis[0],
                                latencyMillis[1],
                                latencyMillis[2],
                                latencyMillis[3]),
                lagMillis.length == 0
                        ? ""
                        : format(
                                "\"p50\": %d, \"p95\": %d, \"max\": %d",
                                lagMillis[0], lagMillis[1], lagMillis[2]),
                number(firstLagMillis),
                number(lastLagMillis),
                exact());
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "null" : format("%.1f", value);
    }

    private static String seconds(long millis) {
        return format("%.2f s", millis / 1000.0);
    }

    private static String format(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }
}
