package dev.fieldprof.benchmarks.client;

import dev.fieldprof.ldp.ExactPrivacyAudit;
import dev.fieldprof.ldp.LocalRandomizer;
import dev.fieldprof.ldp.PrivacyParameters;
import java.util.ArrayList;
import java.util.List;

/**
 * The exact worst-case privacy-loss ratio of a randomizer on a small domain: the largest Pr[R(F) =
 * Z] / Pr[R(F') = Z] over all outputs Z and all pairs F, F' at trace distance <= t (Definition
 * 3.1). Computed for the exact randomizer and for the normal approximation, which is why the SDK
 * does not offer the latter.
 */
public final class NormalApproximationAudit {
    private NormalApproximationAudit() {}

    /** The worst ratio and where it happens. */
    public record Worst(double ratio, int[] f, int[] fPrime, int[] z) {}

    /** Which per-entry pmf to audit. */
    interface CountPmf {
        double of(int f, int z);
    }

    public static Worst exact(PrivacyParameters parameters, int d) {
        return worst(parameters, d, (f, z) -> LocalRandomizer.countPmf(parameters, f, z));
    }

    public static Worst normalApproximation(PrivacyParameters parameters, int d) {
        int k = parameters.k();
        double p = parameters.p();
        return worst(
                parameters,
                d,
                (f, z) -> {
                    double sum = 0;
                    for (int kept = 0; kept <= Math.min(f, z); kept++) {
                        sum +=
                                NormalApproximationRandomizer.pmf(f, p, kept)
                                        * NormalApproximationRandomizer.pmf(k - f, 1 - p, z - kept);
                    }
                    return sum;
                });
    }

    private static Worst worst(PrivacyParameters parameters, int d, CountPmf pmf) {
        int k = parameters.k();
        // Output entries range over [0, k]; the normal approximation can also emit more than k
        // in total, but each entry stays in [0, k].
        double[][] table = new double[k + 1][k + 1];
        for (int f = 0; f <= k; f++) {
            for (int z = 0; z <= k; z++) {
                table[f][z] = pmf.of(f, z);
            }
        }
        List<int[]> domain = new ArrayList<>();
        enumerate(new int[d], 0, k, domain);
        List<int[]> outputs = new ArrayList<>();
        enumerateAll(new int[d], 0, k, outputs);
        Worst worst = new Worst(1, null, null, null);
        for (int[] z : outputs) {
            double[] probabilities = new double[domain.size()];
            for (int i = 0; i < domain.size(); i++) {
                double probability = 1;
                for (int v = 0; v < d; v++) {
                    probability *= table[domain.get(i)[v]][z[v]];
                }
                probabilities[i] = probability;
            }
            for (int i = 0; i < domain.size(); i++) {
                for (int j = 0; j < domain.size(); j++) {
                    if (probabilities[i] > 0
                            && ExactPrivacyAudit.traceDistance(domain.get(i), domain.get(j))
                                    <= parameters.t()) {
                        double ratio = probabilities[i] / probabilities[j];
                        if (ratio > worst.ratio()) {
                            worst = new Worst(ratio, domain.get(i), domain.get(j), z.clone());
                        }
                    }
                }
            }
        }
        return worst;
    }

    private static void enumerate(int[] current, int index, int left, List<int[]> out) {
        if (index == current.length - 1) {
            current[index] = left;
            out.add(current.clone());
            return;
        }
        for (int value = left; value >= 0; value--) {
            current[index] = value;
            enumerate(current, index + 1, left - value, out);
        }
    }

    private static void enumerateAll(int[] current, int index, int k, List<int[]> out) {
        if (index == current.length) {
            out.add(current.clone());
            return;
        }
        for (int value = 0; value <= k; value++) {
            current[index] = value;
            enumerateAll(current, index + 1, k, out);
        }
    }

    /**
     * The standard normal mass of [lo, hi), by composite Gauss-Legendre quadrature of the density
     * (accurate to about 1e-15 relative even far in the tails, where the ratios live).
     */
    static double normalMass(double lo, double hi) {
        if (lo >= hi) {
            return 0;
        }
        // Mass beyond 40 standard deviations is below 1e-300: cut there.
        double a = Math.max(lo, -40);
        double b = Math.min(hi, 40);
        if (a >= b) {
            return 0;
        }
        int panels = (int) Math.ceil((b - a) / 0.05);
        double width = (b - a) / panels;
        double sum = 0;
        for (int i = 0; i < panels; i++) {
            double mid = a + (i + 0.5) * width;
            double half = width / 2;
            for (int g = 0; g < NODES.length; g++) {
                double x = mid + half * NODES[g];
                sum += WEIGHTS[g] * half * Math.exp(-0.5 * x * x);
            }
        }
        return sum / Math.sqrt(2 * Math.PI);
    }

    // 5-point Gauss-Legendre nodes and weights on [-1, 1].
    private static final double[] NODES = {
        -0.9061798459386640, -0.5384693101056831, 0, 0.5384693101056831, 0.9061798459386640
    };
    private static final double[] WEIGHTS = {
        0.2369268850561891,
        0.4786286704993665,
        0.5688888888888889,
        0.4786286704993665,
        0.2369268850561891
    };
}
