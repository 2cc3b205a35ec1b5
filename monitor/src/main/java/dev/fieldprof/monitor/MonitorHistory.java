package dev.fieldprof.monitor;

import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RankedMethod;
import dev.fieldprof.schemas.StandardErrors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the monitor page shows, kept from the topics it follows: per app version and privacy
 * configuration the last N tumbling windows and the cumulative estimates, the dead letters per
 * reason in time buckets, and the edge-model versions published. Turns them into {@link
 * MonitorState}: series with 95% bands (each method's ĝ ± 1.96·se(v) with its own standard error,
 * {@link StandardErrors}), hot-set changes and health. Thread-safe: the topic followers feed it
 * while the web server reads snapshots.
 */
public final class MonitorHistory {
    /** The normal quantile of a two-sided 95% interval. */
    public static final double Z_95 = 1.96;

    private final int windows;
    private final int topMethods;
    private final long deadLetterBucketMillis;
    private final Map<String, StreamHistory> streams = new LinkedHashMap<>();
    private final Map<String, List<String>> signaturesByApp = new HashMap<>();
    private final TreeMap<Long, Map<DeadLetterReason, Long>> deadLetterBuckets = new TreeMap<>();
    private final Map<DeadLetterReason, Long> deadLettersByReason =
            new EnumMap<>(DeadLetterReason.class);
    private final Map<String, MonitorState.EdgeModels> edgeModels = new TreeMap<>();
    private MonitorState.JobHealth jobs = MonitorState.JobHealth.notRead();
    private long deadLetterTotal;
    private long version;

    /**
     * @param windows N, the tumbling windows kept per app version and configuration, at least 1
     * @param topMethods methods drawn per app version and configuration, at least 1
     * @param deadLetterBucketMillis width of the dead-letter time buckets, at least 1 ms
     */
    public MonitorHistory(int windows, int topMethods, long deadLetterBucketMillis) {
        if (windows < 1) {
            throw new IllegalArgumentException("windows must be >= 1, got " + windows);
        }
        if (topMethods < 1) {
            throw new IllegalArgumentException("topMethods must be >= 1, got " + topMethods);
        }
        if (deadLetterBucketMillis < 1) {
            throw new IllegalArgumentException(
                    "deadLetterBucketMillis must be >= 1, got " + deadLetterBucketMillis);
        }
        this.windows = windows;
        this.topMethods = topMethods;
        this.deadLetterBucketMillis = deadLetterBucketMillis;
    }

    /**
     * Takes one estimate.
     *
     * @param recordTimeMillis the Kafka timestamp of the estimate's record, for the lag
     */
    public synchronized void acceptEstimate(EstimateWindow estimate, long recordTimeMillis) {
        String key = estimate.getAppVersion() + " [" + estimate.getConfigId() + "]";
        StreamHistory stream =
                streams.computeIfAbsent(
                        key,
                        k -> new StreamHistory(estimate.getAppVersion(), estimate.getConfigId()));
        stream.accept(new Received(estimate, recordTimeMillis));
        for (RankedMethod method : estimate.getTop()) {
            stream.signatures.put(method.getMethodId(), method.getSignature());
        }
        version++;
    }

    /** Takes the method signatures of an app version's program model (index = method id). */
    public synchronized void acceptSignatures(String appVersion, List<String> signatures) {
        signaturesByApp.put(appVersion, List.copyOf(signatures));
        version++;
    }

    /** Counts one dead letter at the time it was detected. */
    public synchronized void acceptDeadLetter(DeadLetterReason reason, long detectedAtMillis) {
        long bucket = detectedAtMillis - Math.floorMod(detectedAtMillis, deadLetterBucketMillis);
        deadLetterBuckets
                .computeIfAbsent(bucket, b -> new EnumMap<>(DeadLetterReason.class))
                .merge(reason, 1L, Long::sum);
        deadLettersByReason.merge(reason, 1L, Long::sum);
        deadLetterTotal++;
        version++;
    }

    /** Notes an edge model published for an app version. */
    public synchronized void acceptEdgeModel(String appVersion, long modelVersion, long atMillis) {
        MonitorState.EdgeModels old = edgeModels.get(appVersion);
        if (old == null) {
            edgeModels.put(
                    appVersion, new MonitorState.EdgeModels(appVersion, 1, modelVersion, atMillis));
        } else {
            edgeModels.put(
                    appVersion,
                    new MonitorState.EdgeModels(
                            appVersion,
                            old.published() + 1,
                            Math.max(old.latestVersion(), modelVersion),
                            Math.max(old.latestAtMillis(), atMillis)));
        }
        version++;
    }

    /**
     * Takes a reading of the Flink jobs' gauges; an equal reading changes nothing, so that polling
     * an idle cluster does not push the same state to every page again.
     */
    public synchronized void acceptJobHealth(MonitorState.JobHealth reading) {
        if (!reading.equals(jobs)) {
            jobs = reading;
            version++;
        }
    }

    /** Changes with every record taken: a cheap test of whether to push a new state. */
    public synchronized long version() {
        return version;
    }

    /** The cumulative estimate of the stream, or null when none arrived. */
    public synchronized EstimateWindow cumulative(String appVersion, String configId) {
        StreamHistory stream = streams.get(appVersion + " [" + configId + "]");
        return stream == null || stream.cumulative.isEmpty()
                ? null
                : stream.cumulative.lastEntry().getValue().estimate();
    }

    /** The signatures of an app version's program model, or null when none arrived. */
    public synchronized List<String> signatures(String appVersion) {
        return signaturesByApp.get(appVersion);
    }

    /**
     * The state the page draws.
     *
     * @param pinned lowercase signature substring whose methods are drawn too, or null
     */
    public synchronized MonitorState state(String pinned) {
        List<MonitorState.Stream> out = new ArrayList<>();
        for (StreamHistory stream : streams.values()) {
            out.add(stream.state(pinned));
        }
        List<MonitorState.DeadLetterBucket> buckets = new ArrayList<>();
        deadLetterBuckets.forEach(
                (start, counts) ->
                        buckets.add(new MonitorState.DeadLetterBucket(start, names(counts))));
        return new MonitorState(
                out,
                new MonitorState.DeadLetters(
                        deadLetterTotal,
                        names(deadLettersByReason),
                        deadLetterBucketMillis,
                        buckets),
                List.copyOf(edgeModels.values()),
                jobs);
    }

    private static Map<String, Long> names(Map<DeadLetterReason, Long> counts) {
        Map<String, Long> named = new LinkedHashMap<>();
        counts.forEach((reason, count) -> named.put(reason.name(), count));
        return named;
    }

    private record Received(EstimateWindow estimate, long recordTimeMillis) {}

    /** One app version and configuration: its last windows and its cumulative estimates. */
    private final class StreamHistory {
        final String app;
        final String config;

        /**
         * By window end; a re-emitted window (same end) replaces the earlier record unless it is an
         * older revision, and a higher revision keeps the first record's time (the window's lag).
         */
        final TreeMap<Long, Received> tumbling = new TreeMap<>();

        final TreeMap<Long, Received> cumulative = new TreeMap<>();
        final Map<Integer, String> signatures = new HashMap<>();

        StreamHistory(String app, String config) {
            this.app = app;
            this.config = config;
        }

        void accept(Received received) {
            EstimateWindow e = received.estimate();
            long generation = e.getModelGeneration();
            TreeMap<Long, Received> target = e.getCumulative() ? cumulative : tumbling;
            // A new model generation starts the stream anew: its parameters never mix with the old.
            Received newest = newest();
            if (newest != null && newest.estimate().getModelGeneration() != generation) {
                if (newest.estimate().getWindowEndMillis().isAfter(e.getWindowEndMillis())) {
                    return;
                }
                tumbling.clear();
                cumulative.clear();
            }
            long end = e.getWindowEndMillis().toEpochMilli();
            Received held = target.get(end);
            if (held != null && held.estimate().getModelGeneration() == generation) {
                if (held.estimate().getRevision() > e.getRevision()) {
                    return; // an older revision read after a newer one
                }
                if (!e.getCumulative() && held.estimate().getRevision() < e.getRevision()) {
                    // A revision corrects the window's count; its lag stays the first estimate's.
                    received = new Received(e, held.recordTimeMillis());
                }
            }
            target.put(end, received);
            while (target.size() > windows) {
                target.pollFirstEntry();
            }
        }

        Received newest() {
            Received a = tumbling.isEmpty() ? null : tumbling.lastEntry().getValue();
            Received b = cumulative.isEmpty() ? null : cumulative.lastEntry().getValue();
            if (a == null) {
                return b;
            }
            if (b == null) {
                return a;
            }
            return a.estimate().getWindowEndMillis().isAfter(b.estimate().getWindowEndMillis())
                    ? a
                    : b;
        }

        String signature(int id) {
            String known = signatures.get(id);
            if (known != null) {
                return known;
            }
            List<String> model = signaturesByApp.get(app);
            return model != null && id < model.size() ? model.get(id) : "#" + id;
        }

        MonitorState.Stream state(String pinned) {
            Received newest = newest();
            EstimateWindow params = newest.estimate();
            MonitorState.Privacy privacy =
                    new MonitorState.Privacy(
                            params.getEpsilon(),
                            params.getT(),
                            params.getK(),
                            params.getEpsilon() * params.getK() / params.getT(),
                            params.getModelGeneration());
            List<Received> windowList = new ArrayList<>(tumbling.values());
            List<MonitorState.Window> points = new ArrayList<>();
            for (Received r : windowList) {
                EstimateWindow e = r.estimate();
                points.add(
                        new MonitorState.Window(
                                e.getWindowStartMillis().toEpochMilli(),
                                e.getWindowEndMillis().toEpochMilli(),
                                e.getReports(),
                                StandardErrors.largest(e),
                                Z_95 * StandardErrors.largest(e),
                                e.getSolve().getMillis(),
                                e.getSolve().getKktResidual(),
                                lagMillis(e, r.recordTimeMillis()),
                                List.copyOf(e.getHotMethods()),
                                e.getRevision(),
                                e.getCentralEpsilon(),
                                e.getCentralDelta()));
            }
            List<MonitorState.HotChange> changes = new ArrayList<>();
            for (int i = 1; i < windowList.size(); i++) {
                List<Integer> before = windowList.get(i - 1).estimate().getHotMethods();
                List<Integer> after = windowList.get(i).estimate().getHotMethods();
                List<MonitorState.Method> entered = difference(after, before);
                List<MonitorState.Method> left = difference(before, after);
                if (!entered.isEmpty() || !left.isEmpty()) {
                    changes.add(
                            new MonitorState.HotChange(
                                    windowList
                                            .get(i)
                                            .estimate()
                                            .getWindowEndMillis()
                                            .toEpochMilli(),
                                    entered,
                                    left));
                }
            }
            List<MonitorState.Series> series = new ArrayList<>();
            for (int id : drawnMethods(pinned)) {
                series.add(series(id, windowList, pinned));
            }
            EstimateWindow latestCumulative =
                    cumulative.isEmpty() ? null : cumulative.lastEntry().getValue().estimate();
            List<MonitorState.Method> hot = new ArrayList<>();
            if (!windowList.isEmpty()) {
                for (int id : windowList.get(windowList.size() - 1).estimate().getHotMethods()) {
                    hot.add(new MonitorState.Method(id, signature(id)));
                }
            }
            return new MonitorState.Stream(
                    app,
                    config,
                    privacy,
                    points,
                    series,
                    hot,
                    changes,
                    latestCumulative == null ? null : cumulativeOf(latestCumulative));
        }

        private List<MonitorState.Method> difference(List<Integer> a, List<Integer> b) {
            Set<Integer> minus = new LinkedHashSet<>(a);
            minus.removeAll(b);
            List<MonitorState.Method> out = new ArrayList<>();
            for (int id : minus) {
                out.add(new MonitorState.Method(id, signature(id)));
            }
            return out;
        }

        /** The newest window's top methods, then every method matching the pinned substring. */
        private List<Integer> drawnMethods(String pinned) {
            Set<Integer> ids = new LinkedHashSet<>();
            Received latest = tumbling.isEmpty() ? newest() : tumbling.lastEntry().getValue();
            for (RankedMethod m : latest.estimate().getTop()) {
                if (ids.size() >= topMethods) {
                    break;
                }
                ids.add(m.getMethodId());
            }
            if (pinned != null && !pinned.isBlank()) {
                String needle = pinned.toLowerCase(Locale.ROOT);
                int size = latest.estimate().getNormalized().size();
                int matches = 0;
                for (int id = 0; id < size && matches < topMethods; id++) {
                    if (signature(id).toLowerCase(Locale.ROOT).contains(needle)) {
                        ids.add(id);
                        matches++;
                    }
                }
            }
            return new ArrayList<>(ids);
        }

        private MonitorState.Series series(int id, List<Received> windowList, String pinned) {
            int n = windowList.size();
            List<Double> normalized = new ArrayList<>(n);
            List<Double> lower = new ArrayList<>(n);
            List<Double> upper = new ArrayList<>(n);
            List<Double> consistent = new ArrayList<>(n);
            List<Double> cumulativeShare = new ArrayList<>(n);
            for (Received r : windowList) {
                EstimateWindow e = r.estimate();
                Double g = value(e.getNormalized(), id);
                double half = Z_95 * StandardErrors.of(e, id);
                normalized.add(g);
                lower.add(g == null ? null : g - half);
                upper.add(g == null ? null : g + half);
                consistent.add(value(e.getConsistent(), id));
                Received c = cumulative.get(e.getWindowEndMillis().toEpochMilli());
                cumulativeShare.add(c == null ? null : value(c.estimate().getNormalized(), id));
            }
            String signature = signature(id);
            boolean isPinned =
                    pinned != null
                            && !pinned.isBlank()
                            && signature
                                    .toLowerCase(Locale.ROOT)
                                    .contains(pinned.toLowerCase(Locale.ROOT));
            return new MonitorState.Series(
                    id, signature, isPinned, normalized, lower, upper, consistent, cumulativeShare);
        }

        private MonitorState.Cumulative cumulativeOf(EstimateWindow e) {
            List<MonitorState.CumulativeMethod> methods = new ArrayList<>();
            e.getTop().stream()
                    .sorted(Comparator.comparingDouble(RankedMethod::getShare).reversed())
                    .limit(topMethods)
                    .forEach(
                            m ->
                                    methods.add(
                                            new MonitorState.CumulativeMethod(
                                                    m.getMethodId(),
                                                    m.getSignature(),
                                                    m.getNormalized(),
                                                    m.getNormalized() - half(e, m),
                                                    m.getNormalized() + half(e, m),
                                                    m.getShare())));
            return new MonitorState.Cumulative(
                    e.getWindowStartMillis().toEpochMilli(),
                    e.getWindowEndMillis().toEpochMilli(),
                    e.getReports(),
                    StandardErrors.largest(e),
                    methods);
        }

        private static double half(EstimateWindow e, RankedMethod m) {
            return Z_95 * StandardErrors.of(e, m.getMethodId());
        }
    }

    /**
     * From the window's end to when its estimate was written: the record's Kafka timestamp, or the
     * job's emit time when later (the job stamps estimate records with their event time, the
     * window's end, so the Kafka timestamp alone would show no lag).
     */
    static long lagMillis(EstimateWindow e, long recordTimeMillis) {
        return Math.max(recordTimeMillis, e.getEmittedAtMillis().toEpochMilli())
                - e.getWindowEndMillis().toEpochMilli();
    }

    private static Double value(List<Double> values, int id) {
        return id < values.size() ? values.get(id) : null;
    }
}
