package dev.fieldprof.estimation;

import java.util.Arrays;

/**
 * Solves the per-window QP of docs/architecture.md, "The constraint projection, fast": {@code min
 * Σ(x(v) − ĝ(v))²} subject to {@code x >= 0}, {@code Σx = 1} and {@code x(u) <= x(w)} for every
 * pair, as {@code g* = proj_simplex(iso(ĝ))}. The isotonic regression splits every block at its
 * best upper set, found by one maximum flow per block (the partitioning method of Spouge, Wan and
 * Wilbur, and of Hochbaum and Queyranne), and solves chains by pool-adjacent-violators. The flows
 * of a block's last round are its order multipliers, so each solve returns its KKT certificate.
 *
 * <p>Immutable and thread-safe: the graph is preprocessed once and every solve allocates its own
 * work space.
 *
 * <pre>{@code
 * ConstraintProjection qp = new ConstraintProjection(ConstraintGraph.of(programModel));
 * ProjectionResult r = qp.project(estimate.normalized());
 * double[] gStar = r.solution();
 * }</pre>
 */
public final class ConstraintProjection {
    /** Residual capacities below this share of the round's largest capacity count as zero. */
    private static final double RELATIVE_TOLERANCE = 1e-13;

    private final ConstraintGraph graph;

    public ConstraintProjection(ConstraintGraph graph) {
        this.graph = graph;
    }

    public ConstraintGraph graph() {
        return graph;
    }

    /**
     * Projects ĝ onto the consistent set.
     *
     * @param estimate ĝ, one finite value per method
     * @throws IllegalArgumentException when the length is not the graph's method count or a value
     *     is not finite
     */
    public ProjectionResult project(double[] estimate) {
        long started = System.nanoTime();
        ConstraintGraph g = graph;
        if (estimate.length != g.methods) {
            throw new IllegalArgumentException(
                    "estimate has " + estimate.length + " values, the graph " + g.methods);
        }
        for (double value : estimate) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("estimate holds a non-finite value " + value);
            }
        }
        int components = g.components;
        double[] weight = new double[components];
        double[] mean = new double[components];
        for (int v = 0; v < g.methods; v++) {
            mean[g.component[v]] += estimate[v];
        }
        for (int c = 0; c < components; c++) {
            weight[c] = g.componentSize[c];
            mean[c] /= weight[c];
        }
        double[] fit = mean.clone();
        double[] edgeMultiplier = new double[g.dagFrom.length];
        for (int i = 0; i < g.chainNodes.length; i++) {
            poolAdjacentViolators(
                    g.chainNodes[i], g.chainEdges[i], mean, weight, fit, edgeMultiplier);
        }
        int rounds = splitGeneralPieces(mean, weight, fit, edgeMultiplier);

        double[] isotonic = new double[g.methods];
        for (int v = 0; v < g.methods; v++) {
            isotonic[v] = fit[g.component[v]];
        }
        double[] pairMultiplier = new double[g.left.length];
        for (int e = 0; e < edgeMultiplier.length; e++) {
            pairMultiplier[g.dagPair[e]] += edgeMultiplier[e];
        }
        routeInsideComponents(estimate, isotonic, pairMultiplier);

        double lambda = simplexShift(isotonic);
        double[] solution = new double[g.methods];
        double[] boundMultiplier = new double[g.methods];
        for (int v = 0; v < g.methods; v++) {
            solution[v] = Math.max(isotonic[v] - lambda, 0.0);
            // μ = max(λ − iso, 0) closes stationarity for methods clipped at zero.
            boundMultiplier[v] = Math.max(lambda - isotonic[v], 0.0);
        }
        double millis = (System.nanoTime() - started) / 1e6;
        double objective = 0;
        for (int v = 0; v < g.methods; v++) {
            double d = solution[v] - estimate[v];
            objective += d * d;
        }
        double maxViolation = maxViolation(g, solution);
        double residual =
                kktResidual(g, estimate, solution, lambda, pairMultiplier, boundMultiplier);
        return new ProjectionResult(
                solution,
                isotonic,
                lambda,
                pairMultiplier,
                boundMultiplier,
                objective,
                residual,
                maxViolation,
                rounds,
                millis);
    }

    /** Largest {@code max(0, x(left) − x(right))} over the pairs of the graph. */
    public static double maxViolation(ConstraintGraph g, double[] x) {
        double worst = 0;
        for (int p = 0; p < g.left.length; p++) {
            worst = Math.max(worst, x[g.left[p]] - x[g.right[p]]);
        }
        return worst;
    }

    /** The largest violation of the KKT conditions of a candidate solution and certificate. */
    static double kktResidual(
            ConstraintGraph g,
            double[] estimate,
            double[] x,
            double lambda,
            double[] pi,
            double[] mu) {
        double[] stationarity = new double[g.methods];
        double sum = 0;
        double worst = 0;
        for (int v = 0; v < g.methods; v++) {
            stationarity[v] = x[v] - estimate[v] + lambda - mu[v];
            sum += x[v];
            worst = Math.max(worst, Math.max(-x[v], -mu[v]));
            worst = Math.max(worst, Math.abs(mu[v] * x[v]));
        }
        for (int p = 0; p < g.left.length; p++) {
            stationarity[g.left[p]] += pi[p];
            stationarity[g.right[p]] -= pi[p];
            double gap = x[g.right[p]] - x[g.left[p]];
            worst = Math.max(worst, Math.max(-pi[p], -gap));
            worst = Math.max(worst, Math.abs(pi[p] * gap));
        }
        for (double s : stationarity) {
            worst = Math.max(worst, Math.abs(s));
        }
        return Math.max(worst, Math.abs(sum - 1.0));
    }

    /**
     * Weighted pool-adjacent-violators along a chain whose values must not decrease; the multiplier
     * of the edge after position i is {@code Σ_{j<=i} w(j)·(y(j) − fit(j))}.
     */
    private static void poolAdjacentViolators(
            int[] nodes, int[] edges, double[] y, double[] w, double[] fit, double[] multiplier) {
        int n = nodes.length;
        double[] blockSum = new double[n];
        double[] blockWeight = new double[n];
        int[] blockEnd = new int[n];
        int blocks = 0;
        for (int i = 0; i < n; i++) {
            int c = nodes[i];
            blockSum[blocks] = w[c] * y[c];
            blockWeight[blocks] = w[c];
            blockEnd[blocks] = i + 1;
            blocks++;
            while (blocks > 1
                    && blockSum[blocks - 2] / blockWeight[blocks - 2]
                            >= blockSum[blocks - 1] / blockWeight[blocks - 1]) {
                blockSum[blocks - 2] += blockSum[blocks - 1];
                blockWeight[blocks - 2] += blockWeight[blocks - 1];
                blockEnd[blocks - 2] = blockEnd[blocks - 1];
                blocks--;
            }
        }
        int start = 0;
        for (int b = 0; b < blocks; b++) {
            double value = blockSum[b] / blockWeight[b];
            for (int i = start; i < blockEnd[b]; i++) {
                fit[nodes[i]] = value;
            }
            start = blockEnd[b];
        }
        double running = 0;
        for (int i = 0; i < n - 1; i++) {
            int c = nodes[i];
            running += w[c] * (y[c] - fit[c]);
            multiplier[edges[i]] = Math.max(running, 0.0);
        }
    }

    /**
     * Isotonic regression of the general pieces by recursive upper-set splits: a block with mean μ
     * splits at the closed upper set U maximizing {@code Σ_{U} w(y − μ)}, a maximum-weight closure
     * found by min-cut; blocks that no cut improves are final, with the flow as multipliers.
     *
     * <p>Every block gets its own max-flow, so a solve costs the sum over blocks of their flows,
     * not the deepest piece's number of rounds times the whole graph. The blocks of a piece are
     * ranges of one array, each split partitions its range in place (upper part first), and one
     * {@link MaxFlow} serves every block: nothing is allocated per block.
     *
     * @return the number of rounds: the deepest split of any piece, plus one for the final blocks
     */
    private int splitGeneralPieces(double[] y, double[] w, double[] fit, double[] edgeMultiplier) {
        ConstraintGraph g = graph;
        if (g.generalNodes.length == 0) {
            return 0;
        }
        int largestPiece = 0;
        for (int[] piece : g.generalNodes) {
            largestPiece = Math.max(largestPiece, piece.length);
        }
        int[] members = new int[largestPiece];
        int[] lowerPart = new int[largestPiece];
        // A stack of blocks (start, end, depth); a split pushes two, so it never holds more than
        // one entry per member.
        int[] stack = new int[3 * (largestPiece + 1)];
        int[] blockTag = new int[g.components];
        Arrays.fill(blockTag, -1);
        int[] local = new int[g.components];
        int[] arcOf = new int[g.dagFrom.length];
        MaxFlow flow = new MaxFlow(largestPiece + 2, largestPiece + g.generalEdges.length);
        int tags = 0;
        int rounds = 0;
        for (int[] piece : g.generalNodes) {
            System.arraycopy(piece, 0, members, 0, piece.length);
            int top = 0;
            stack[top++] = 0;
            stack[top++] = piece.length;
            stack[top++] = 1;
            while (top > 0) {
                int depth = stack[--top];
                int end = stack[--top];
                int start = stack[--top];
                rounds = Math.max(rounds, depth);
                int n = end - start;
                double sum = 0;
                double total = 0;
                int tag = tags++;
                for (int i = start; i < end; i++) {
                    int c = members[i];
                    local[c] = i - start;
                    blockTag[c] = tag;
                    sum += w[c] * y[c];
                    total += w[c];
                }
                double mean = sum / total;
                double largest = 0;
                for (int i = start; i < end; i++) {
                    int c = members[i];
                    largest = Math.max(largest, Math.abs(w[c] * (y[c] - mean)));
                }
                int source = n;
                int sink = n + 1;
                flow.reset(n + 2);
                for (int i = start; i < end; i++) {
                    int c = members[i];
                    double gain = w[c] * (y[c] - mean);
                    if (gain > 0) {
                        flow.addEdge(source, local[c], gain);
                    } else if (gain < 0) {
                        flow.addEdge(local[c], sink, -gain);
                    }
                }
                for (int i = start; i < end; i++) {
                    int c = members[i];
                    for (int j = g.dagOutStart[c]; j < g.dagOutStart[c + 1]; j++) {
                        int e = g.dagOut[j];
                        int to = g.dagTo[e];
                        if (blockTag[to] == tag) {
                            // Closure arc: an upper set holding c must hold `to`.
                            arcOf[e] = flow.addEdge(local[c], local[to], MaxFlow.INFINITE);
                        }
                    }
                }
                double tolerance = RELATIVE_TOLERANCE * largest;
                flow.run(source, sink, tolerance);
                boolean[] upper = flow.sourceSide(source, tolerance);
                int up = 0;
                int low = 0;
                for (int i = start; i < end; i++) {
                    int c = members[i];
                    if (upper[local[c]]) {
                        members[start + up++] = c;
                    } else {
                        lowerPart[low++] = c;
                    }
                }
                System.arraycopy(lowerPart, 0, members, start + up, low);
                if (up == 0 || up == n) {
                    for (int i = start; i < end; i++) {
                        int c = members[i];
                        fit[c] = mean;
                        for (int j = g.dagOutStart[c]; j < g.dagOutStart[c + 1]; j++) {
                            int e = g.dagOut[j];
                            if (blockTag[g.dagTo[e]] == tag) {
                                edgeMultiplier[e] = flow.flow(arcOf[e]);
                            }
                        }
                    }
                    continue;
                }
                stack[top++] = start + up;
                stack[top++] = end;
                stack[top++] = depth + 1;
                stack[top++] = start;
                stack[top++] = start + up;
                stack[top++] = depth + 1;
            }
        }
        return rounds;
    }

    /**
     * Multipliers of the pairs inside a component: each member must send out {@code ĝ(v) − iso(v)}
     * minus what the pairs leaving the component already carry; supplies go to the root along the
     * in-tree and demands come from it along the out-tree, so every routed multiplier is {@code >=
     * 0}.
     */
    private void routeInsideComponents(double[] estimate, double[] isotonic, double[] pi) {
        ConstraintGraph g = graph;
        double[] supply = new double[g.methods];
        boolean any = false;
        for (int v = 0; v < g.methods; v++) {
            if (g.componentSize[g.component[v]] > 1) {
                supply[v] = estimate[v] - isotonic[v];
                any = true;
            }
        }
        if (!any) {
            return;
        }
        for (int p = 0; p < g.left.length; p++) {
            int u = g.left[p];
            int w = g.right[p];
            if (g.component[u] != g.component[w]) {
                if (g.componentSize[g.component[u]] > 1) {
                    supply[u] -= pi[p];
                }
                if (g.componentSize[g.component[w]] > 1) {
                    supply[w] += pi[p];
                }
            }
        }
        double[] up = new double[g.methods];
        double[] down = new double[g.methods];
        for (int v = 0; v < g.methods; v++) {
            up[v] = Math.max(supply[v], 0.0);
            down[v] = Math.max(-supply[v], 0.0);
        }
        // Leaves first: reverse breadth-first order accumulates subtree totals.
        for (int i = g.methods - 1; i >= 0; i--) {
            int v = g.inOrder[i];
            int p = g.inTreePair[v];
            if (p >= 0) {
                pi[p] += up[v];
                up[g.right[p]] += up[v];
            }
            int u = g.outOrder[i];
            int q = g.outTreePair[u];
            if (q >= 0) {
                pi[q] += down[u];
                down[g.left[q]] += down[u];
            }
        }
    }

    /** λ with {@code Σ max(z − λ, 0) = 1}, by sorting (Held, Wolfe and Crowder; Duchi et al.). */
    static double simplexShift(double[] z) {
        double[] sorted = z.clone();
        Arrays.sort(sorted);
        double running = 0;
        double lambda = 0;
        int count = 0;
        for (int i = sorted.length - 1; i >= 0; i--) {
            running += sorted[i];
            count++;
            double candidate = (running - 1.0) / count;
            if (sorted[i] - candidate > 0) {
                lambda = candidate;
            } else {
                break;
            }
        }
        return lambda;
    }
}
