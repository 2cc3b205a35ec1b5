package dev.fieldprof.schemas;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The key of an EstimateWindow on {@code fieldprof.estimates}, and which of two records of one key
 * a reader keeps. The topic is a changelog: a window estimated again after late reports were added
 * to it is published again under the same key with a higher {@code revision}, and the topic is
 * compacted, so a consumer that keeps the latest value per key reads the corrected estimate.
 *
 * <p>A window's key is {@code appVersion NUL configId NUL generation NUL start-end} (generation in
 * hex, bounds in epoch milliseconds); a cumulative estimate's is {@code appVersion NUL configId NUL
 * generation NUL cumulative}, one key per (app version, config, generation) whatever its bounds.
 */
public final class EstimateKeys {
    private EstimateKeys() {}

    /** The key of {@code window} as a string. */
    public static String of(EstimateWindow window) {
        String head =
                window.getAppVersion()
                        + '\u0000'
                        + window.getConfigId()
                        + '\u0000'
                        + Long.toHexString(window.getModelGeneration())
                        + '\u0000';
        return window.getCumulative()
                ? head + "cumulative"
                : head
                        + window.getWindowStartMillis().toEpochMilli()
                        + '-'
                        + window.getWindowEndMillis().toEpochMilli();
    }

    /** The Kafka key of {@code window} (UTF-8 of {@link #of}). */
    public static byte[] bytes(EstimateWindow window) {
        return of(window).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Whether a reader that holds {@code held} should replace it with {@code read}, a record of the
     * same key: a higher revision wins; of one revision (a job restored from before a publication
     * publishes it again), the record read last.
     */
    public static boolean supersedes(EstimateWindow read, EstimateWindow held) {
        return read.getRevision() >= held.getRevision();
    }

    /**
     * The latest revision of every estimate among {@code windows}, in the order their keys first
     * appear: what a reader of the whole topic counts, each window once.
     */
    public static List<EstimateWindow> latest(Collection<EstimateWindow> windows) {
        Map<String, EstimateWindow> byKey = new LinkedHashMap<>();
        for (EstimateWindow window : windows) {
            byKey.merge(of(window), window, (held, read) -> supersedes(read, held) ? read : held);
        }
        return new ArrayList<>(byKey.values());
    }
}
