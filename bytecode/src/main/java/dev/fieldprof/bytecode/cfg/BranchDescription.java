package dev.fieldprof.bytecode.cfg;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The branch nodes of the path-traced methods as plain data (docs/architecture.md, "Paths"): per
 * method id, the ascending ids of its blocks with two or more normal out-edges and their
 * out-degrees, the edges numbered in the CFG's out-edge order. Device and server build their path
 * coder's branch table from it (client-sdk {@code paths.BranchTableText}), so this module needs no
 * client-sdk dependency. Immutable; {@link #toText()} / {@link #parse} give the versioned text form
 * the instrumenter writes into the jar as {@link #RESOURCE}.
 */
public final class BranchDescription implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Where {@code PathProbeInstrumenter} stores the description inside the instrumented jar. */
    public static final String RESOURCE = "META-INF/fieldprof/branches.txt";

    /** First line of the text form; the number is the text format version. */
    public static final String HEADER = "fieldprof-branches 1";

    private final int[][] blocks;
    private final int[][] degrees;

    private BranchDescription(int[][] blocks, int[][] degrees) {
        this.blocks = blocks;
        this.degrees = degrees;
    }

    /**
     * The description of {@code methodCount} methods from the CFGs of those that have one (methods
     * without a CFG, or without branch nodes, get none).
     *
     * @param maxDegree branch nodes with more out-edges are left out (they are not traced)
     */
    public static BranchDescription of(
            int methodCount, Map<Integer, BytecodeCfg> cfgs, int maxDegree) {
        int[][] blocks = new int[methodCount][];
        int[][] degrees = new int[methodCount][];
        for (int m = 0; m < methodCount; m++) {
            BytecodeCfg cfg = cfgs.get(m);
            List<int[]> nodes = cfg == null ? List.of() : branchNodes(cfg, maxDegree);
            blocks[m] = nodes.stream().mapToInt(n -> n[0]).toArray();
            degrees[m] = nodes.stream().mapToInt(n -> n[1]).toArray();
        }
        return new BranchDescription(blocks, degrees);
    }

    /** The traced branch nodes of a CFG as (block, out-degree), ascending by block id. */
    private static List<int[]> branchNodes(BytecodeCfg cfg, int maxDegree) {
        List<int[]> nodes = new ArrayList<>();
        for (int block : cfg.branchBlocks()) {
            int degree = normalOutEdges(cfg, block).size();
            if (degree >= 2 && degree <= maxDegree) {
                nodes.add(new int[] {block, degree});
            }
        }
        nodes.sort((a, b) -> Integer.compare(a[0], b[0]));
        return nodes;
    }

    /**
     * Per block id of the CFG, the local number of its first out-edge, or -1 for a block that is no
     * traced branch node: a method's edges are numbered from 0 over its branch nodes in block
     * order, each node's out-edges in {@link #normalOutEdges} order, as the path coder numbers
     * them. The path instrumenter passes edge numbers so that the device need not look them up.
     */
    public static int[] firstLocalEdges(BytecodeCfg cfg, int maxDegree) {
        int[] first = new int[cfg.blocks().size()];
        Arrays.fill(first, -1);
        int next = 0;
        for (int[] node : branchNodes(cfg, maxDegree)) {
            first[node[0]] = next;
            next += node[1];
        }
        return first;
    }

    /**
     * The normal (non-exception) out-edges of a block in CFG order: the order in which a path probe
     * numbers them (conditional jump: taken, then fall-through; switch: distinct targets in key
     * order, then the default if it is a distinct target).
     */
    public static List<BytecodeCfg.Edge> normalOutEdges(BytecodeCfg cfg, int block) {
        List<BytecodeCfg.Edge> out = new ArrayList<>();
        for (BytecodeCfg.Edge edge : cfg.edges()) {
            if (edge.from() == block && edge.kind() != EdgeKind.EXCEPTION) {
                out.add(edge);
            }
        }
        return out;
    }

    public int methodCount() {
        return blocks.length;
    }

    /** Ascending block ids of the method's branch nodes (a copy). */
    public int[] branchBlocks(int methodId) {
        return blocks[methodId].clone();
    }

    /** Out-degrees parallel to {@link #branchBlocks} (a copy). */
    public int[] outDegrees(int methodId) {
        return degrees[methodId].clone();
    }

    /** Number of branch nodes over all methods. */
    public int branchNodeCount() {
        int n = 0;
        for (int[] b : blocks) {
            n += b.length;
        }
        return n;
    }

    /**
     * Text form: {@link #HEADER}, {@code methods N}, then one line {@code id block:degree ...} per
     * method with branch nodes, ascending ids.
     */
    public String toText() {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        out.append("methods ").append(blocks.length).append('\n');
        for (int m = 0; m < blocks.length; m++) {
            if (blocks[m].length == 0) {
                continue;
            }
            out.append(m);
            for (int i = 0; i < blocks[m].length; i++) {
                out.append(' ').append(blocks[m][i]).append(':').append(degrees[m][i]);
            }
            out.append('\n');
        }
        return out.toString();
    }

    /**
     * Reads {@link #toText()}'s form.
     *
     * @throws IllegalArgumentException naming the line if the text is malformed
     */
    public static BranchDescription parse(String text) {
        String[] lines = text.split("\n");
        if (lines.length < 2 || !lines[0].strip().equals(HEADER)) {
            throw new IllegalArgumentException(
                    "not a branch description: first line must be '" + HEADER + "'");
        }
        if (!lines[1].startsWith("methods ")) {
            throw new IllegalArgumentException("line 2 must be 'methods N'");
        }
        int n = Integer.parseInt(lines[1].substring("methods ".length()).strip());
        TreeMap<Integer, int[][]> rows = new TreeMap<>();
        for (int l = 2; l < lines.length; l++) {
            String line = lines[l].strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split(" ");
            int m = Integer.parseInt(parts[0]);
            if (m < 0 || m >= n || rows.containsKey(m)) {
                throw new IllegalArgumentException("line " + (l + 1) + ": bad method id " + m);
            }
            int[] b = new int[parts.length - 1];
            int[] d = new int[parts.length - 1];
            for (int i = 1; i < parts.length; i++) {
                int colon = parts[i].indexOf(':');
                if (colon < 0) {
                    throw new IllegalArgumentException(
                            "line " + (l + 1) + ": expected block:degree, got " + parts[i]);
                }
                b[i - 1] = Integer.parseInt(parts[i].substring(0, colon));
                d[i - 1] = Integer.parseInt(parts[i].substring(colon + 1));
            }
            rows.put(m, new int[][] {b, d});
        }
        int[][] blocks = new int[n][];
        int[][] degrees = new int[n][];
        for (int m = 0; m < n; m++) {
            int[][] row = rows.get(m);
            blocks[m] = row == null ? new int[0] : row[0];
            degrees[m] = row == null ? new int[0] : row[1];
        }
        return new BranchDescription(blocks, degrees);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BranchDescription d
                && Arrays.deepEquals(blocks, d.blocks)
                && Arrays.deepEquals(degrees, d.degrees);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(blocks) * 31 + Arrays.deepHashCode(degrees);
    }

    @Override
    public String toString() {
        return "BranchDescription{methods=" + blocks.length + ", nodes=" + branchNodeCount() + "}";
    }
}
