package dev.fieldprof.paths;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A random structured program for path coder tests: methods whose bodies nest if/switch branches,
 * loops with long runs of the same decision, calls (recursion included, some inside try/catch) and
 * throws. Running it drives a {@link Probe} as instrumented bytecode would drive the path encoder.
 * Everything is derived from a seed.
 */
final class SyntheticProgram {

    /** What the instrumentation calls. */
    interface Probe {
        void enter(int methodId);

        void branch(int blockId, int edge);

        void exit(int methodId);

        void exitExceptionally(int methodId);
    }

    sealed interface Stmt permits Branch, Loop, Call, Throw {}

    record Branch(int block, int[] weights, Stmt[][] arms) implements Stmt {}

    record Loop(int block, int meanIterations, Stmt[] body) implements Stmt {}

    record Call(int callee, boolean catches) implements Stmt {}

    record Throw(int permille) implements Stmt {}

    static final class SimulatedException extends RuntimeException {
        SimulatedException() {
            super(null, null, false, false);
        }
    }

    final int methodCount;
    final Stmt[][] bodies;
    final ArrayBranchTable table;
    private final int maxDepth;

    private SyntheticProgram(
            int methodCount, Stmt[][] bodies, ArrayBranchTable table, int maxDepth) {
        this.methodCount = methodCount;
        this.bodies = bodies;
        this.table = table;
        this.maxDepth = maxDepth;
    }

    /**
     * @param skew larger values make branch weights more lopsided (1 = mild)
     * @param maxLoopMean mean loop iteration count is drawn from [1, maxLoopMean]
     */
    static SyntheticProgram generate(
            long seed, int methodCount, int skew, int maxLoopMean, int maxDepth) {
        SplittableRandom rnd = new SplittableRandom(seed);
        ArrayBranchTable.Builder table = ArrayBranchTable.builder(methodCount);
        Stmt[][] bodies = new Stmt[methodCount][];
        for (int m = 0; m < methodCount; m++) {
            int[] nextBlock = {rnd.nextInt(0, 3)};
            bodies[m] = block(rnd, table, m, nextBlock, methodCount, skew, maxLoopMean, 0);
        }
        return new SyntheticProgram(methodCount, bodies, table.build(), maxDepth);
    }

    private static Stmt[] block(
            SplittableRandom rnd,
            ArrayBranchTable.Builder table,
            int m,
            int[] nextBlock,
            int methods,
            int skew,
            int maxLoopMean,
            int nesting) {
        int n = rnd.nextInt(1, nesting == 0 ? 6 : 4);
        List<Stmt> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int kind = rnd.nextInt(10);
            if (nesting < 3 && kind < 4) {
                int degree = rnd.nextInt(10) == 0 ? rnd.nextInt(3, 12) : 2;
                int block = nextBlock[0];
                // Block ids are sparse, as in a CFG where most blocks have one successor.
                nextBlock[0] += rnd.nextInt(1, 4);
                table.branch(m, block, degree);
                int[] w = new int[degree];
                Stmt[][] arms = new Stmt[degree][];
                for (int e = 0; e < degree; e++) {
                    int base = rnd.nextInt(1, 100);
                    int wt = 1;
                    for (int s = 0; s < skew; s++) {
                        wt *= base;
                    }
                    w[e] = Math.min(wt, 1_000_000);
                    arms[e] =
                            rnd.nextInt(3) == 0
                                    ? block(
                                            rnd,
                                            table,
                                            m,
                                            nextBlock,
                                            methods,
                                            skew,
                                            maxLoopMean,
                                            nesting + 1)
                                    : new Stmt[0];
                }
                out.add(new Branch(block, w, arms));
            } else if (nesting < 3 && kind < 6) {
                int block = nextBlock[0];
                nextBlock[0] += rnd.nextInt(1, 4);
                table.branch(m, block, 2);
                out.add(
                        new Loop(
                                block,
                                rnd.nextInt(1, maxLoopMean + 1),
                                block(
                                        rnd,
                                        table,
                                        m,
                                        nextBlock,
                                        methods,
                                        skew,
                                        maxLoopMean,
                                        nesting + 1)));
            } else if (kind < 9) {
                out.add(new Call(rnd.nextInt(methods), rnd.nextInt(4) == 0));
            } else {
                out.add(new Throw(rnd.nextInt(1, 30)));
            }
        }
        return out.toArray(new Stmt[0]);
    }

    private long budget;

    /**
     * Runs {@code invocations} outermost calls of random methods; once about {@code maxBranches}
     * branch events have happened, loops stop iterating and calls are skipped.
     */
    void run(SplittableRandom rnd, Probe probe, int invocations, long maxBranches) {
        budget = maxBranches;
        for (int i = 0; i < invocations; i++) {
            try {
                invoke(rnd, probe, rnd.nextInt(methodCount), 1);
            } catch (SimulatedException e) {
                // an uncaught exception ends this outermost call only
            }
        }
    }

    private void invoke(SplittableRandom rnd, Probe probe, int m, int depth) {
        probe.enter(m);
        try {
            exec(rnd, probe, m, bodies[m], depth);
        } catch (SimulatedException e) {
            probe.exitExceptionally(m);
            throw e;
        }
        probe.exit(m);
    }

    private void exec(SplittableRandom rnd, Probe probe, int m, Stmt[] body, int depth) {
        for (Stmt s : body) {
            if (s instanceof Branch b) {
                int total = 0;
                for (int w : b.weights()) {
                    total += w;
                }
                int x = rnd.nextInt(total);
                int e = 0;
                while (x >= b.weights()[e]) {
                    x -= b.weights()[e++];
                }
                probe.branch(b.block(), e);
                budget--;
                exec(rnd, probe, m, b.arms()[e], depth);
            } else if (s instanceof Loop l) {
                // Geometric iteration count with the loop's mean.
                while (budget > 0 && rnd.nextInt(l.meanIterations() + 1) != 0) {
                    probe.branch(l.block(), 0);
                    budget--;
                    exec(rnd, probe, m, l.body(), depth);
                }
                probe.branch(l.block(), 1);
            } else if (s instanceof Call c) {
                if (budget > 0 && depth < maxDepth && rnd.nextInt(depth + 1) < 2) {
                    if (c.catches()) {
                        try {
                            invoke(rnd, probe, c.callee(), depth + 1);
                        } catch (SimulatedException e) {
                            // caught by the caller's handler; the caller continues
                        }
                    } else {
                        invoke(rnd, probe, c.callee(), depth + 1);
                    }
                }
            } else if (s instanceof Throw t && rnd.nextInt(1000) < t.permille()) {
                throw new SimulatedException();
            }
        }
    }
}
