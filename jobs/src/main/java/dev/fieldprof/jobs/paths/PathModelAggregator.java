package dev.fieldprof.jobs.paths;

import dev.fieldprof.paths.EdgeCounter;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.InvalidPathReportException;
import dev.fieldprof.paths.ModelUpdater;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathRecording;
import dev.fieldprof.paths.PathReportHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The Flink-free core of the PathModelJob for one app version (docs/architecture.md, "Paths"; the
 * server side of AdapTracer, docs/references.md): decodes each path report with the edge model
 * version it names, keeping the last N published versions, counts edges over a window, and at the
 * window's end produces model version M+1 from the newest model M. Reports naming a version it no
 * longer (or not yet) holds, and reports that fail to decode, are rejected with the reason a dead
 * letter carries. Not thread-safe: one instance per app version per task.
 *
 * <pre>{@code
 * PathModelAggregator agg = new PathModelAggregator(EdgeModel.uniform(table), 4,
 *         new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL));
 * agg.add(reportBytes);                       // per report of the window
 * Optional<EdgeModel> next = agg.closeWindow(); // publish next.get() keyed by app version
 * }</pre>
 */
public final class PathModelAggregator {

    /** The outcome of one report: accepted, or rejected with a reason. */
    public record Outcome(boolean accepted, long modelVersion, long events, String reason) {
        static Outcome accepted(long modelVersion, long events) {
            return new Outcome(true, modelVersion, events, null);
        }

        static Outcome rejected(long modelVersion, String reason) {
            return new Outcome(false, modelVersion, 0, reason);
        }
    }

    /** The version of the uniform model every device starts with. */
    static final long UNIFORM = 0;

    private final int keepVersions;
    private final ModelUpdater updater;
    private final TreeMap<Long, PathDecoder> decoders = new TreeMap<>();
    private EdgeModel current;
    private EdgeCounter window;
    private final PathRecording scratch = new PathRecording();
    private long acceptedInWindow;
    private long rejectedInWindow;

    /**
     * @param initial the newest published model (the uniform one, version 0, if none was)
     * @param keepVersions how many of the newest published model versions stay decodable, >= 1,
     *     besides the uniform version 0
     * @param updater how version M+1 is derived from M and the window's counts
     */
    public PathModelAggregator(EdgeModel initial, int keepVersions, ModelUpdater updater) {
        if (keepVersions < 1) {
            throw new IllegalArgumentException("keepVersions must be >= 1, got " + keepVersions);
        }
        this.keepVersions = keepVersions;
        this.updater = updater;
        this.current = initial;
        this.window = new EdgeCounter(initial.branchTable());
        decoders.put(initial.version(), new PathDecoder(initial));
    }

    /**
     * Makes an already published model decodable, for example one read back from the compacted
     * model topic after a restart; the newest adopted version becomes the base of M+1.
     *
     * @throws IllegalArgumentException if it is for other branch nodes than the current model
     */
    public void adopt(EdgeModel published) {
        if (!published.matches(current.branchTable())) {
            throw new IllegalArgumentException(
                    "model " + published.version() + " is for other branch nodes");
        }
        decoders.put(published.version(), new PathDecoder(published));
        if (published.version() > current.version()) {
            current = published;
        }
        evict();
    }

    /**
     * Decodes a report and, if it decodes completely, adds its edges to the window's counts.
     *
     * @return accepted with the report's model version and event count, or rejected with the reason
     *     (an unknown or evicted model version, or why the report is undecodable)
     */
    public Outcome add(byte[] report) {
        long version = -1;
        PathReportHeader header;
        try {
            version = PathDecoder.readHeader(report).modelVersion();
            PathDecoder decoder = decoders.get(version);
            if (decoder == null) {
                rejectedInWindow++;
                return Outcome.rejected(
                        version,
                        "edge model version "
                                + version
                                + " is not kept (kept: "
                                + decoders.keySet()
                                + ")");
            }
            // Decode into a scratch list first: a report that fails halfway counts nothing.
            scratch.clear();
            header = decoder.decode(report, scratch);
        } catch (InvalidPathReportException e) {
            rejectedInWindow++;
            return Outcome.rejected(version, e.getMessage());
        }
        // The counter follows frames for the successor hints: restart it at this report's frames.
        window.begin(header);
        scratch.replay(window);
        acceptedInWindow++;
        return Outcome.accepted(version, scratch.size());
    }

    /**
     * Ends the window: if it counted any event, derives model version M+1 from the newest model M,
     * keeps it as the newest decodable version (evicting the oldest beyond N) and returns it. The
     * counts restart either way.
     */
    public Optional<EdgeModel> closeWindow() {
        EdgeCounter counts = window;
        window = new EdgeCounter(current.branchTable());
        long accepted = acceptedInWindow;
        acceptedInWindow = 0;
        rejectedInWindow = 0;
        if (accepted == 0) {
            return Optional.empty();
        }
        current = updater.next(current, counts);
        decoders.put(current.version(), new PathDecoder(current));
        evict();
        return Optional.of(current);
    }

    /**
     * Keeps the newest {@code keepVersions} published versions, and the uniform model (version 0)
     * always: it is what every device starts with, so a device that has not yet fetched a model
     * still sends reports the job decodes.
     */
    private void evict() {
        while (decoders.size() - (decoders.containsKey(UNIFORM) ? 1 : 0) > keepVersions) {
            decoders.remove(decoders.higherKey(UNIFORM));
        }
    }

    /** The newest model: the one devices should use, and the base of the next version. */
    public EdgeModel current() {
        return current;
    }

    /** Model versions still decodable, ascending. */
    public List<Long> keptVersions() {
        return new ArrayList<>(decoders.keySet());
    }

    /** A kept model version, if any. */
    public Optional<EdgeModel> model(long version) {
        PathDecoder d = decoders.get(version);
        return d == null ? Optional.empty() : Optional.of(d.model());
    }

    /** Reports accepted in the current window. */
    public long acceptedInWindow() {
        return acceptedInWindow;
    }

    /** Reports rejected in the current window. */
    public long rejectedInWindow() {
        return rejectedInWindow;
    }

    /** Read-only view for tests and metrics: version to model of every kept version. */
    Map<Long, EdgeModel> keptModels() {
        TreeMap<Long, EdgeModel> out = new TreeMap<>();
        decoders.forEach((v, d) -> out.put(v, d.model()));
        return out;
    }
}
