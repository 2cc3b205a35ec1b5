package dev.fieldprof.benchmarks.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

/**
 * Picks the {@code --h-bound} to recommend from measured plans: the largest one whose worst variant
 * stays under the overhead limit, where every smaller measured h-bound stays under it too. A larger
 * bound that passes only after a smaller one failed is taken for noise, not for a safe bound (the
 * overhead of a plan grows with its h-bound; the measurement need not).
 */
final class HBoundChoice {

    /** One measured plan: its h-bound and its worst variant's overhead (0.10 = +10%). */
    record Measured(long hBound, double worstOverhead) {}

    private HBoundChoice() {}

    /**
     * @param measured plans in any order, h-bounds distinct
     * @param limit overhead the worst variant must stay strictly under (0.10 = 10%)
     * @return the chosen h-bound, empty if even the smallest measured one is not under the limit
     */
    static OptionalLong largestUnder(List<Measured> measured, double limit) {
        List<Measured> ascending = new ArrayList<>(measured);
        ascending.sort(Comparator.comparingLong(Measured::hBound));
        OptionalLong chosen = OptionalLong.empty();
        for (int i = 0; i < ascending.size(); i++) {
            Measured m = ascending.get(i);
            if (i > 0 && m.hBound() == ascending.get(i - 1).hBound()) {
                throw new IllegalArgumentException("h-bound " + m.hBound() + " measured twice");
            }
            if (!(m.worstOverhead() < limit)) {
                break;
            }
            chosen = OptionalLong.of(m.hBound());
        }
        return chosen;
    }
}
