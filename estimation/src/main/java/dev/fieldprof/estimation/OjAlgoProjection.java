package dev.fieldprof.estimation;

import java.util.HashSet;
import java.util.Set;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;
import org.ojalgo.optimisation.convex.ConvexSolver;

/**
 * The same per-window QP handed to ojAlgo's general convex solver: the reference that {@link
 * ConstraintProjection} is validated against on small instances, and the side-by-side baseline of
 * {@code fieldprof project} (docs/architecture.md, "The constraint projection, fast").
 */
public final class OjAlgoProjection {
    /** Which of ojAlgo 57's convex algorithms to use. */
    public enum Algorithm {
        /** The default active-set method: exact, but slow beyond a few hundred methods. */
        ACTIVE_SET,
        /** Alternating direction method of multipliers: fast, approximate. */
        ADMM
    }

    /** ojAlgo's answer: the solution, its state as ojAlgo reports it, and the wall time. */
    public record Solution(double[] x, String state, double millis) {}

    private OjAlgoProjection() {}

    /** Solves {@code min Σ(x − ĝ)²} s.t. {@code x >= 0, Σx = 1}, and the graph's pairs. */
    public static Solution solve(ConstraintGraph graph, double[] estimate, Algorithm algorithm) {
        long started = System.nanoTime();
        Optimisation.Options options = new Optimisation.Options();
        options.convex()
                .algorithm(
                        algorithm == Algorithm.ADMM
                                ? ConvexSolver.Algorithm.ADMM
                                : ConvexSolver.Algorithm.ACTIVE_SET);
        ExpressionsBasedModel model = new ExpressionsBasedModel(options);
        int n = graph.methods();
        Variable[] x = new Variable[n];
        for (int v = 0; v < n; v++) {
            x[v] = model.addVariable("x" + v).lower(0);
        }
        Expression objective = model.addExpression("objective").weight(1);
        Expression sum = model.addExpression("sum").level(1);
        for (int v = 0; v < n; v++) {
            objective.set(x[v], x[v], 1.0);
            objective.set(x[v], -2.0 * estimate[v]);
            sum.set(x[v], 1.0);
        }
        // Repeated pairs are one constraint; handing ojAlgo copies only makes it degenerate.
        Set<Long> seen = new HashSet<>();
        for (int p = 0; p < graph.pairs(); p++) {
            int u = graph.leftOf(p);
            int w = graph.rightOf(p);
            if (u != w && seen.add(((long) u << 32) | w)) {
                model.addExpression("p" + p).upper(0).set(x[u], 1.0).set(x[w], -1.0);
            }
        }
        Optimisation.Result result = model.minimise();
        double[] solution = new double[n];
        for (int v = 0; v < n; v++) {
            solution[v] = result.doubleValue(v);
        }
        return new Solution(
                solution, result.getState().toString(), (System.nanoTime() - started) / 1e6);
    }
}
