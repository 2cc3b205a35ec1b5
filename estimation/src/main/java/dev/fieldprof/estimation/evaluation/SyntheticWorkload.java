package dev.fieldprof.estimation.evaluation;

import dev.fieldprof.estimation.ConstraintGraph;
import dev.fieldprof.ldp.RandomSource;

/**
 * Heavy-tailed epochs that satisfy every pair in every run, for programs known only by their pairs
 * (the data released with frequency profiling, docs/references.md): a shared Pareto popularity per
 * method times a per-device log-normal usage factor, raised along the pairs (components are
 * numbered sinks first, so walking them from the highest number visits every predecessor first) and
 * rounded, which keeps the order.
 */
public final class SyntheticWorkload implements DeviceWorkload {
    private final String name;
    private final ConstraintGraph graph;
    private final double[] popularity;
    private final int[][] successors;

    /**
     * @param seed fixes the shared popularity of every method
     */
    public SyntheticWorkload(String name, ConstraintGraph graph, long seed) {
        this.name = name;
        this.graph = graph;
        this.successors = graph.condensedSuccessors();
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        this.popularity = new double[graph.components()];
        for (int c = 0; c < popularity.length; c++) {
            // Pareto with shape 1.1: a few methods take most of the calls, as in real apps.
            popularity[c] = Math.pow(1 - random.nextDouble(), -1.0 / 1.1);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ConstraintGraph graph() {
        return graph;
    }

    @Override
    public long[] epoch(int device, long minimumEvents, RandomSource random) {
        double[] value = new double[popularity.length];
        for (int c = 0; c < value.length; c++) {
            value[c] = popularity[c] * Math.exp(0.5 * gaussian(random));
        }
        for (int c = value.length - 1; c >= 0; c--) {
            for (int d : successors[c]) {
                value[d] = Math.max(value[d], value[c]);
            }
        }
        double total = 0;
        int methods = graph.methods();
        for (int v = 0; v < methods; v++) {
            total += value[graph.componentOf(v)];
        }
        // Twice the events needed, so that the k-sample is a real sample of a longer epoch.
        double scale = 2.0 * minimumEvents / total;
        long[] epoch = new long[methods];
        long events = 0;
        for (int v = 0; v < methods; v++) {
            epoch[v] = Math.round(value[graph.componentOf(v)] * scale);
            events += epoch[v];
        }
        if (events < minimumEvents) {
            throw new IllegalStateException("epoch too short: " + events + " < " + minimumEvents);
        }
        return epoch;
    }

    private static double gaussian(RandomSource random) {
        double u = random.nextOpenUnit();
        double w = random.nextOpenUnit();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * w);
    }
}
