package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.paths.BranchTable;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A lower bound on what the staged tracer's coding can cost per event, beside what it costs: each
 * program's measured run (seed 0, as {@link EncoderFixture} records it) as raw events, walked by
 * loops that do a strict subset of the coder's work on every event, in the same JVM and interleaved
 * rounds:
 *
 * <ol>
 *   <li>{@code walk}: the dispatch on the event's kind and the frame moves (an int stack);
 *   <li>{@code state}: also each event's position state (most probable symbol and miss probability,
 *       two ints in the frame's method table, as the version-3 position model keeps them) read,
 *       compared and adapted; a miss only resets the position, nothing is coded;
 *   <li>{@code state+step}: also the binary coder step of every event (one multiplication on the
 *       range and its renormalization);
 *   <li>{@code coder}: the real coding loop ({@link EncoderFixture#codeStaged}, format 4, M3).
 * </ol>
 *
 * The difference between {@code walk} and {@code state} is what keeping an adaptive state per
 * position costs, whatever coder follows it. Timed by the thread's CPU time, median over the rounds
 * of one pass each.
 *
 * <pre>
 * java -cp benchmarks/target/classes:$(cat benchmarks/target/cp.txt) \
 *     dev.fieldprof.benchmarks.paths.CoderFloor [programs] [--rounds N]
 * </pre>
 */
public final class CoderFloor {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int LEVELS = 8;
    private static final long TOP = 1L << 24;
    private static final int Q_NEW = 1 << 26;
    private static volatile long sink;

    private final int[] raw;
    private final int methods;
    private final int[] callBase; // per method (and the outermost frame): first call symbol
    private final int[][] tables; // per method: two ints per position
    private final int[] stack;
    private final int[][] savedTables;
    private final int[] savedPositions;
    private final int[] savedMethods;
    private long misses;

    private CoderFloor(int[] raw, BranchTable table) {
        this.raw = raw;
        this.methods = table.methodCount();
        this.callBase = new int[methods + 1];
        this.tables = new int[methods + 1][];
        for (int m = 0; m <= methods; m++) {
            int edges = 0;
            if (m < methods) {
                for (int b : table.branchBlocks(m)) {
                    edges += table.outDegree(m, b);
                }
            }
            callBase[m] = 2 + edges;
            tables[m] = new int[2 * (m < methods ? (edges + 1) * LEVELS : methods + 1)];
        }
        int depth = maxDepth(raw);
        this.stack = new int[depth + 1];
        this.savedTables = new int[depth + 1][];
        this.savedPositions = new int[depth + 1];
        this.savedMethods = new int[depth + 1];
    }

    /** The most frames the run has open at once, an exit closing those down to its method's. */
    private static int maxDepth(int[] raw) {
        int[] s = new int[64];
        int d = 0;
        int most = 0;
        for (int e : raw) {
            int v = e >> 2;
            if ((e & 3) == 0) {
                if (d == s.length) {
                    s = Arrays.copyOf(s, 2 * d);
                }
                s[d++] = v;
                most = Math.max(most, d);
            } else if ((e & 3) != 1) {
                int j = d - 1;
                while (j >= 0 && s[j] != v) {
                    j--;
                }
                if (j >= 0) {
                    d = j;
                }
            }
        }
        return most;
    }

    /** The dispatch and the frame moves: an exit pops the frames down to its method's. */
    long walk() {
        int[] s = stack;
        int d = 0;
        long h = 0;
        for (int e : raw) {
            int kind = e & 3;
            int v = e >> 2;
            if (kind == 1) {
                h += v;
            } else if (kind == 0) {
                s[d++] = v;
            } else {
                int j = d - 1;
                while (j >= 0 && s[j] != v) {
                    j--;
                }
                if (j >= 0) {
                    d = j;
                }
            }
        }
        return h + d;
    }

    /**
     * The frame moves with each event's position state read, compared and adapted, and with the
     * binary coder step if {@code step}. Positions as the version-3 model numbers them: the last
     * local edge and the calls since (at most LEVELS - 1); the outermost frame's is its previous
     * callee. Symbols: 0 exit, 1 exceptional exit, 2 + g edge g, callBase + c call of c.
     */
    long state(boolean step) {
        for (int[] t : tables) {
            Arrays.fill(t, -1);
        }
        int[][] hot = tables;
        int[] bases = callBase;
        int[][] savedT = savedTables;
        int[] savedP = savedPositions;
        int[] savedM = savedMethods;
        int m = methods;
        int[] t = hot[m];
        int pos = 0;
        int d = 0;
        long range = 0xFFFF_FFFFL;
        long out = 0;
        long missed = 0;
        for (int e : raw) {
            int kind = e & 3;
            int v = e >> 2;
            int symbol = kind == 1 ? 2 + v : kind == 0 ? bases[m] + v : kind - 2;
            int i = pos << 1;
            if (t[i] == symbol) {
                int q = t[i + 1];
                if (step) {
                    range -= (range * q) >>> 28;
                    if (range < TOP) {
                        range <<= 8;
                        out++;
                    }
                }
                t[i + 1] = q - (q >>> 6);
            } else {
                missed++;
                t[i] = symbol;
                t[i + 1] = Q_NEW;
                if (step) {
                    range = (range * Q_NEW) >>> 28;
                    while (range < TOP) {
                        range <<= 8;
                        out++;
                    }
                }
            }
            if (kind == 1) {
                pos = (v + 1) * LEVELS;
            } else if (kind == 0) {
                savedT[d] = t;
                savedM[d] = m;
                savedP[d] = d == 0 ? v + 1 : (pos & (LEVELS - 1)) != LEVELS - 1 ? pos + 1 : pos;
                d++;
                m = v;
                t = hot[v];
                pos = 0;
            } else if (d > 0) {
                int k = d; // the frame of method v: the top, or the nearest below it
                while (k > 0 && (k == d ? m : savedM[k]) != v) {
                    k--;
                }
                if (k > 0) {
                    d = k - 1;
                    t = savedT[d];
                    m = savedM[d];
                    pos = savedP[d];
                }
            }
        }
        misses = missed;
        return out + range + missed;
    }

    public static void main(String[] args) throws Exception {
        List<String> programs = new ArrayList<>(List.of("commons-lang3", "gson", "guava"));
        int rounds = 30;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--rounds")) {
                rounds = Integer.parseInt(args[++i]);
            } else {
                programs.retainAll(List.of(args[i].split(",")));
            }
        }
        System.out.println(
                "Lower bound of the staged coder's cost: ns per raw event, thread CPU time, median"
                        + " of "
                        + rounds
                        + " interleaved rounds after as many warm-up ones");
        System.out.printf(
                Locale.ROOT,
                "%-14s %9s %7s | %7s %7s %10s %7s | %s%n",
                "program",
                "events",
                "misses",
                "walk",
                "state",
                "state+step",
                "coder",
                "coder / state+step");
        for (String program : programs) {
            EncoderFixture f = EncoderFixture.of(program);
            CoderFloor floor = new CoderFloor(f.raw, f.m3.branchTable());
            List<LongSupplier> loops =
                    List.of(
                            floor::walk,
                            () -> floor.state(false),
                            () -> floor.state(true),
                            () -> f.codeStaged(f.m3, null));
            double[][] ns = new double[loops.size()][rounds];
            for (int r = -rounds; r < rounds; r++) {
                for (int k = 0; k < loops.size(); k++) {
                    long start = THREADS.getCurrentThreadCpuTime();
                    sink += loops.get(k).getAsLong();
                    long took = THREADS.getCurrentThreadCpuTime() - start;
                    if (r >= 0) {
                        ns[k][r] = (double) took / f.raw.length;
                    }
                }
            }
            double[] median = new double[loops.size()];
            for (int k = 0; k < loops.size(); k++) {
                Arrays.sort(ns[k]);
                median[k] = ns[k][rounds / 2];
            }
            System.out.printf(
                    Locale.ROOT,
                    "%-14s %9d %6.1f%% | %7.2f %7.2f %10.2f %7.2f | %.2fx%n",
                    program,
                    f.raw.length,
                    100.0 * floor.misses / f.raw.length,
                    median[0],
                    median[1],
                    median[2],
                    median[3],
                    median[3] / median[2]);
        }
        System.out.println(
                "(walk: dispatch on the event's kind and frame moves; state: also each event's"
                        + " position state read, compared and adapted; state+step: also one binary"
                        + " coder step per event; coder: the real coding loop, format 4 with M3;"
                        + " misses: events that were not their position's last symbol)");
    }
}
