package dev.fieldprof.paths;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The measurement behind {@link EdgeModel#DEFAULT_INC}: bits per branch decision for AdapTracer's
 * increment inc in {1, 2, 4, 8, 16, 32} (AdapTracer, docs/references.md, measured 1..4 on JGFMath)
 * on synthetic branch streams, coding only the edges with the adaptive model (bound 8192), starting
 * from the uniform model ("cold") and from a model trained on earlier reports ("trained").
 */
class IncChoiceTest {
    static final int[] INCS = {1, 2, 4, 8, 16, 32};
    static final int REPORTS = 6;

    /** A stream of (node, edge) decisions with fixed per-node distributions. */
    record Workload(String name, ArrayBranchTable table, int[][] weights, boolean drifting) {}

    static Workload skewed() {
        SplittableRandom rnd = new SplittableRandom(11);
        int nodes = 72;
        ArrayBranchTable.Builder b = ArrayBranchTable.builder(1);
        int[][] w = new int[nodes][];
        double[] ps = {0.9, 0.95, 0.99, 0.999};
        for (int i = 0; i < nodes; i++) {
            if (i % 9 == 8) {
                w[i] = new int[8];
                java.util.Arrays.fill(w[i], 10);
                w[i][rnd.nextInt(8)] = 630; // 90% on one case of a switch
            } else {
                int hot = (int) Math.round(ps[i % 4] * 1000);
                w[i] =
                        rnd.nextBoolean()
                                ? new int[] {hot, 1000 - hot}
                                : new int[] {1000 - hot, hot};
            }
            b.branch(0, i, w[i].length);
        }
        return new Workload("skewed", b.build(), w, false);
    }

    static Workload mixed() {
        SplittableRandom rnd = new SplittableRandom(12);
        int nodes = 96;
        ArrayBranchTable.Builder b = ArrayBranchTable.builder(1);
        int[][] w = new int[nodes][];
        for (int i = 0; i < nodes; i++) {
            if (i % 6 == 5) {
                int d = rnd.nextInt(4, 17);
                w[i] = new int[d];
                for (int e = 0; e < d; e++) {
                    w[i][e] = 1000 / (1 + rnd.nextInt(d)); // Zipf-like cases
                }
            } else {
                int p = rnd.nextInt(1, 1000);
                w[i] = new int[] {p, 1000 - p};
            }
            b.branch(0, i, w[i].length);
        }
        return new Workload("mixed", b.build(), w, true);
    }

    /** Bits per decision over {@code REPORTS} reports of {@code length} decisions. */
    static double bitsPerDecision(Workload wl, int inc, int length, boolean trained, long seed) {
        EdgeModel model = EdgeModel.uniform(wl.table(), 0, inc, EdgeModel.DEFAULT_BOUND);
        if (trained) {
            EdgeCounter counts = new EdgeCounter(wl.table());
            SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
            int[] visits = new int[wl.weights().length];
            for (int i = 0; i < length * 2; i++) {
                int node = pickNode(rnd, wl.weights().length);
                counts.branch(0, node, pickEdge(rnd, wl, node, visits[node]++));
            }
            model = new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL).next(model, counts);
        }
        AdaptiveEdgeModel adaptive = new AdaptiveEdgeModel(model);
        RangeEncoder enc = new RangeEncoder(1 << 12);
        SplittableRandom rnd = new SplittableRandom(seed);
        long bytes = 0;
        int[] visits = new int[wl.weights().length];
        for (int r = 0; r < REPORTS; r++) {
            adaptive.reset();
            enc.reset();
            for (int i = 0; i < length; i++) {
                int node = pickNode(rnd, wl.weights().length);
                adaptive.encode(enc, 0, node, pickEdge(rnd, wl, node, visits[node]++));
            }
            bytes += enc.finish();
        }
        return 8.0 * bytes / (REPORTS * (double) length);
    }

    /** Node i is visited with weight 1 / (i + 1), like hot and cold code. */
    static int pickNode(SplittableRandom rnd, int nodes) {
        while (true) {
            int i = rnd.nextInt(nodes);
            if (rnd.nextInt(i + 1) == 0) {
                return i;
            }
        }
    }

    static int pickEdge(SplittableRandom rnd, Workload wl, int node, int visit) {
        int[] w = wl.weights()[node];
        // Drifting workloads reverse a binary node's bias every 400 visits of it.
        boolean flip = wl.drifting() && w.length == 2 && node % 3 == 0 && (visit / 400) % 2 == 1;
        int total = 0;
        for (int x : w) {
            total += x;
        }
        int x = rnd.nextInt(total);
        int e = 0;
        while (x >= w[e]) {
            x -= w[e++];
        }
        return flip ? 1 - e : e;
    }

    /** The table as printed; columns: workload x report length x cold/trained. */
    static String table() {
        Workload[] wls = {skewed(), mixed()};
        int[] lengths = {1_000, 20_000};
        StringBuilder sb = new StringBuilder("bits/decision   ");
        for (Workload wl : wls) {
            for (int len : lengths) {
                for (String start : new String[] {"cold", "trained"}) {
                    sb.append(
                            String.format(
                                    Locale.ROOT, "%-22s", wl.name() + "/" + len + "/" + start));
                }
            }
        }
        sb.append("mean\n");
        for (int inc : INCS) {
            sb.append(String.format(Locale.ROOT, "inc=%-12d", inc));
            double sum = 0;
            int n = 0;
            for (Workload wl : wls) {
                for (int len : lengths) {
                    for (boolean trained : new boolean[] {false, true}) {
                        double v = bitsPerDecision(wl, inc, len, trained, 99);
                        sum += v;
                        n++;
                        sb.append(String.format(Locale.ROOT, "%-22.4f", v));
                    }
                }
            }
            sb.append(String.format(Locale.ROOT, "%.4f%n", sum / n));
        }
        return sb.toString();
    }

    public static void main(String[] args) {
        System.out.print(table());
    }

    @Test
    void printsTheIncTableAndConfirmsTheDefault() {
        String t = table();
        System.out.print(t);
        assertEquals(INCS.length + 1, t.lines().count());
        // The selection rule of EdgeModel.DEFAULT_INC: among the incs within 0.5% of the best
        // mean, the one with the fewest bits on skewed streams from a cold start.
        double[] mean = new double[INCS.length];
        double[] skewedCold = new double[INCS.length];
        double best = Double.MAX_VALUE;
        for (int i = 0; i < INCS.length; i++) {
            String[] cells = t.lines().skip(i + 1).findFirst().orElseThrow().trim().split("\\s+");
            mean[i] = Double.parseDouble(cells[cells.length - 1]);
            skewedCold[i] = Double.parseDouble(cells[1]) + Double.parseDouble(cells[3]);
            best = Math.min(best, mean[i]);
        }
        int chosen = -1;
        for (int i = 0; i < INCS.length; i++) {
            if (mean[i] <= best * 1.005 && (chosen < 0 || skewedCold[i] < skewedCold[chosen])) {
                chosen = i;
            }
        }
        assertEquals(EdgeModel.DEFAULT_INC, INCS[chosen]);
    }
}
