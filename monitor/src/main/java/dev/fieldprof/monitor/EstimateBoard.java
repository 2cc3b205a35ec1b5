package dev.fieldprof.monitor;

import dev.fieldprof.schemas.EstimateWindow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The latest estimates per app version and privacy configuration: the newest tumbling window and
 * the newest cumulative estimate, as a live view shows them. Not thread-safe: one consumer thread
 * feeds it and renders it.
 */
public final class EstimateBoard {
    /** One app version and configuration's latest estimates. */
    public record Entry(
            String appVersion, String configId, EstimateWindow window, EstimateWindow cumulative) {}

    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private final String appFilter;
    private long estimatesSeen;
    private EstimateWindow lastWindow;
    private long lastWindowLagMillis;

    /**
     * @param appFilter show only this {@code app:version}, or every app version when null
     */
    public EstimateBoard(String appFilter) {
        this.appFilter = appFilter;
    }

    /**
     * Takes one estimate; older windows than the one shown are ignored, and of one window the
     * highest revision is shown (a revision adds reports that arrived after the window's first
     * estimate).
     */
    public void accept(EstimateWindow estimate) {
        if (appFilter != null && !appFilter.equals(estimate.getAppVersion())) {
            return;
        }
        estimatesSeen++;
        String key = estimate.getAppVersion() + "\u0000" + estimate.getConfigId();
        Entry old = entries.get(key);
        EstimateWindow window = old == null ? null : old.window();
        EstimateWindow cumulative = old == null ? null : old.cumulative();
        if (estimate.getCumulative()) {
            cumulative = newer(cumulative, estimate);
        } else {
            window = newer(window, estimate);
        }
        entries.put(
                key,
                new Entry(estimate.getAppVersion(), estimate.getConfigId(), window, cumulative));
    }

    /**
     * Takes one estimate with the Kafka timestamp of its record, so that the lag of the newest
     * window (its end to its estimate's record time) can be shown.
     */
    public void accept(EstimateWindow estimate, long recordTimeMillis) {
        accept(estimate);
        if ((appFilter == null || appFilter.equals(estimate.getAppVersion()))
                && !estimate.getCumulative()
                && newer(lastWindow, estimate) == estimate) {
            // A later revision of the same window corrects its count, not when it closed.
            boolean revision =
                    lastWindow != null
                            && lastWindow.getWindowEndMillis().equals(estimate.getWindowEndMillis())
                            && lastWindow.getRevision() < estimate.getRevision();
            if (!revision) {
                lastWindowLagMillis = MonitorHistory.lagMillis(estimate, recordTimeMillis);
            }
            lastWindow = estimate;
        }
    }

    /** The newest tumbling window taken with its record time, or null. */
    public EstimateWindow lastWindow() {
        return lastWindow;
    }

    /** From the newest window's end to its estimate's record time; 0 before the first. */
    public long lastWindowLagMillis() {
        return lastWindowLagMillis;
    }

    private static EstimateWindow newer(EstimateWindow shown, EstimateWindow candidate) {
        if (shown == null) {
            return candidate;
        }
        Comparator<EstimateWindow> byTime =
                Comparator.comparing(EstimateWindow::getWindowEndMillis)
                        .thenComparing(EstimateWindow::getRevision)
                        .thenComparing(EstimateWindow::getReports);
        return byTime.compare(candidate, shown) >= 0 ? candidate : shown;
    }

    public List<Entry> entries() {
        return new ArrayList<>(entries.values());
    }

    public Optional<Entry> entry(String appVersion, String configId) {
        return Optional.ofNullable(entries.get(appVersion + "\u0000" + configId));
    }

    public long estimatesSeen() {
        return estimatesSeen;
    }
}
