package dev.fieldprof.jobs.frequency.core;

import dev.fieldprof.jobs.frequency.records.ShuffledBatches;
import dev.fieldprof.ldp.ShuffleAmplification;
import dev.fieldprof.schemas.EstimateWindow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The central (ε, δ) an estimate of the shuffled mode holds (docs/architecture.md, "What the
 * analyst sees"): every report in it was randomized at the configuration's ε (ε₀) and shuffled
 * among at least the reports of its batch, so the estimate holds what {@link ShuffleAmplification}
 * proves for the smallest of its batches, at the configuration's δ. The figure assumes that the
 * shuffler does not collude with the analyst; without that, each report is ε₀-LDP and nothing more.
 *
 * <p>Not thread-safe: it remembers the last figures it computed (a computation takes up to a
 * fraction of a second at 10⁵ reports, and a window is estimated again with the same batches on
 * every revision).
 */
public final class CentralGuarantee {
    private static final int REMEMBERED = 64;

    private final Map<String, Double> computed =
            new LinkedHashMap<>(16, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Double> eldest) {
                    return size() > REMEMBERED;
                }
            };

    /**
     * Sets the window's batch sizes and central (ε, δ). Leaves a local-only window (no terms, or no
     * batches) at the schema's defaults: no sizes, central ε and δ 0.
     *
     * @param terms the configuration's shuffle terms, null when it is local-only
     * @param epsilon0 the configuration's ε, each report's local ε₀
     */
    public void state(
            EstimateWindow window, ShuffledBatches batches, ShuffleTerms terms, double epsilon0) {
        if (terms == null || batches == null || batches.isEmpty()) {
            return;
        }
        int[] sizes = batches.sortedSizes();
        List<Integer> listed = new ArrayList<>(sizes.length);
        for (int size : sizes) {
            listed.add(size);
        }
        window.setShuffledBatchSizes(listed);
        window.setCentralEpsilon(centralEpsilon(sizes[0], epsilon0, terms.delta()));
        window.setCentralDelta(terms.delta());
    }

    /**
     * The central ε of a batch of {@code reports} at {@code epsilon0} and {@code delta}; ε₀ itself
     * where the amplification bound does not apply (ε₀ beyond its range: nothing is amplified).
     */
    public double centralEpsilon(int reports, double epsilon0, double delta) {
        if (!(epsilon0 > 0 && epsilon0 <= ShuffleAmplification.MAX_EPSILON0) || reports < 1) {
            return epsilon0;
        }
        String key = reports + ":" + epsilon0 + ":" + delta;
        Double known = computed.get(key);
        if (known == null) {
            known = new ShuffleAmplification(reports, epsilon0).centralEpsilon(delta);
            computed.put(key, known);
        }
        return known;
    }
}
