package dev.fieldprof.estimation;

import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.ProgramModel;
import java.util.Arrays;
import java.util.List;

/**
 * The preprocessed pair order of one program model: strongly connected components collapsed (pairs
 * both ways mean equal frequencies), the condensed acyclic graph split into weakly connected
 * pieces, each classified as a single method, a chain (solved by pool-adjacent-violators) or a
 * general piece (solved by min-cut splits), and spanning trees inside every component for the
 * multipliers. Built once per constraint graph (docs/architecture.md, "The constraint projection,
 * fast"); every traversal is iterative. Immutable and thread-safe after construction.
 */
public final class ConstraintGraph {
    final int methods;
    final int[] left;
    final int[] right;

    /** Component of every method; components are numbered sinks first (Tarjan's order). */
    final int[] component;

    final int components;
    final int[] componentSize;

    /** Members of component c: memberOrder[memberStart[c] .. memberStart[c+1]), root first. */
    final int[] memberStart;

    /** Members in breadth-first order of the in-tree (toward the root). */
    final int[] inOrder;

    /** Members in breadth-first order of the out-tree (from the root). */
    final int[] outOrder;

    /** In-tree: the pair leading from a method toward its component's root, or -1. */
    final int[] inTreePair;

    /** Out-tree: the pair leading from the parent to a method, or -1. */
    final int[] outTreePair;

    /** Edges of the condensed graph, one per distinct pair of components, with a pair each. */
    final int[] dagFrom;

    final int[] dagTo;
    final int[] dagPair;

    /** Condensed edges leaving component c: dagOut[dagOutStart[c] .. dagOutStart[c+1]). */
    final int[] dagOutStart;

    final int[] dagOut;

    /** Chains: components in order along the chain and the edges between them. */
    final int[][] chainNodes;

    final int[][] chainEdges;

    /** General pieces: their components, and the condensed edges inside them. */
    final int[][] generalNodes;

    final int[] generalEdges;

    /**
     * Preprocesses {@code F(left[p]) <= F(right[p])} for every pair p over methods {@code 0 ..
     * methods-1}.
     *
     * @throws IllegalArgumentException when a pair names a method outside {@code [0, methods)} or
     *     the arrays differ in length
     */
    public ConstraintGraph(int methods, int[] left, int[] right) {
        if (methods < 1) {
            throw new IllegalArgumentException("need at least one method, got " + methods);
        }
        if (left.length != right.length) {
            throw new IllegalArgumentException(
                    left.length + " left ends but " + right.length + " right ends");
        }
        for (int p = 0; p < left.length; p++) {
            if (left[p] < 0 || left[p] >= methods || right[p] < 0 || right[p] >= methods) {
                throw new IllegalArgumentException(
                        "pair "
                                + p
                                + " ("
                                + left[p]
                                + " <= "
                                + right[p]
                                + ") names a method outside [0, "
                                + methods
                                + ")");
            }
        }
        this.methods = methods;
        this.left = left.clone();
        this.right = right.clone();

        int[] outStart = new int[methods + 1];
        int[] outPairs = csr(methods, this.left, outStart);
        int[] inStart = new int[methods + 1];
        int[] inPairs = csr(methods, this.right, inStart);

        this.component = new int[methods];
        this.components = stronglyConnected(outStart, outPairs);
        this.componentSize = new int[components];
        for (int v = 0; v < methods; v++) {
            componentSize[component[v]]++;
        }
        this.memberStart = new int[components + 1];
        for (int c = 0; c < components; c++) {
            memberStart[c + 1] = memberStart[c] + componentSize[c];
        }
        this.inOrder = new int[methods];
        this.outOrder = new int[methods];
        this.inTreePair = new int[methods];
        this.outTreePair = new int[methods];
        Arrays.fill(inTreePair, -1);
        Arrays.fill(outTreePair, -1);
        spanningTrees(outStart, outPairs, inStart, inPairs);

        // Condensed edges, one per distinct (component, component) pair, numbered in the order of
        // their first pair. Linear time: the pairs grouped by their left end's component, and a
        // stamp per right-end component that says which left component saw it last.
        int pairCount = this.left.length;
        int[] leftComponent = new int[pairCount];
        for (int p = 0; p < pairCount; p++) {
            leftComponent[p] = component[this.left[p]];
        }
        int[] groupStart = new int[components + 1];
        int[] grouped = csr(components, leftComponent, groupStart);
        int[] stamp = new int[components];
        Arrays.fill(stamp, -1);
        boolean[] firstOfEdge = new boolean[pairCount];
        for (int cu = 0; cu < components; cu++) {
            for (int j = groupStart[cu]; j < groupStart[cu + 1]; j++) {
                int p = grouped[j];
                int cw = component[this.right[p]];
                if (cw != cu && stamp[cw] != cu) {
                    stamp[cw] = cu;
                    firstOfEdge[p] = true;
                }
            }
        }
        int[] from = new int[pairCount];
        int[] into = new int[pairCount];
        int[] pairOf = new int[pairCount];
        int count = 0;
        for (int p = 0; p < pairCount; p++) {
            if (firstOfEdge[p]) {
                from[count] = leftComponent[p];
                into[count] = component[this.right[p]];
                pairOf[count] = p;
                count++;
            }
        }
        this.dagFrom = Arrays.copyOf(from, count);
        this.dagTo = Arrays.copyOf(into, count);
        this.dagPair = Arrays.copyOf(pairOf, count);
        this.dagOutStart = new int[components + 1];
        this.dagOut = csr(components, dagFrom, dagOutStart);

        // Weakly connected pieces by union-find over the condensed edges.
        int[] parent = new int[components];
        for (int c = 0; c < components; c++) {
            parent[c] = c;
        }
        for (int e = 0; e < count; e++) {
            int a = find(parent, dagFrom[e]);
            int b = find(parent, dagTo[e]);
            if (a != b) {
                parent[a] = b;
            }
        }
        int[] pieceOf = new int[components];
        int[] pieceSize = new int[components];
        int[] pieceEdges = new int[components];
        for (int c = 0; c < components; c++) {
            pieceOf[c] = find(parent, c);
            pieceSize[pieceOf[c]]++;
        }
        int[] outDegree = new int[components];
        int[] inDegree = new int[components];
        int[] outEdge = new int[components];
        for (int e = 0; e < count; e++) {
            pieceEdges[pieceOf[dagFrom[e]]]++;
            outDegree[dagFrom[e]]++;
            inDegree[dagTo[e]]++;
            outEdge[dagFrom[e]] = e;
        }
        boolean[] branching = new boolean[components];
        for (int c = 0; c < components; c++) {
            if (outDegree[c] > 1 || inDegree[c] > 1) {
                branching[pieceOf[c]] = true;
            }
        }
        int chains = 0;
        int generals = 0;
        for (int c = 0; c < components; c++) {
            if (pieceOf[c] == c && pieceSize[c] > 1) {
                if (!branching[c] && pieceEdges[c] == pieceSize[c] - 1) {
                    chains++;
                } else {
                    generals++;
                }
            }
        }
        this.chainNodes = new int[chains][];
        this.chainEdges = new int[chains][];
        int[] generalIndex = new int[components];
        Arrays.fill(generalIndex, -1);
        int[] generalCount = new int[generals];
        int chain = 0;
        int general = 0;
        for (int c = 0; c < components; c++) {
            int piece = pieceOf[c];
            if (pieceSize[piece] <= 1) {
                continue;
            }
            boolean isChain = !branching[piece] && pieceEdges[piece] == pieceSize[piece] - 1;
            if (isChain && inDegree[c] == 0) {
                int[] nodes = new int[pieceSize[piece]];
                int[] chainEdge = new int[pieceSize[piece] - 1];
                int at = c;
                for (int i = 0; i < nodes.length; i++) {
                    nodes[i] = at;
                    if (i < chainEdge.length) {
                        chainEdge[i] = outEdge[at];
                        at = dagTo[outEdge[at]];
                    }
                }
                chainNodes[chain] = nodes;
                chainEdges[chain] = chainEdge;
                chain++;
            } else if (!isChain && generalIndex[piece] < 0) {
                generalIndex[piece] = general++;
            }
        }
        this.generalNodes = new int[generals][];
        for (int c = 0; c < components; c++) {
            int g = generalIndex[pieceOf[c]];
            if (g >= 0) {
                generalCount[g]++;
            }
        }
        for (int g = 0; g < generals; g++) {
            generalNodes[g] = new int[generalCount[g]];
            generalCount[g] = 0;
        }
        for (int c = 0; c < components; c++) {
            int g = generalIndex[pieceOf[c]];
            if (g >= 0) {
                generalNodes[g][generalCount[g]++] = c;
            }
        }
        int inGeneral = 0;
        for (int e = 0; e < count; e++) {
            if (generalIndex[pieceOf[dagFrom[e]]] >= 0) {
                inGeneral++;
            }
        }
        this.generalEdges = new int[inGeneral];
        inGeneral = 0;
        for (int e = 0; e < count; e++) {
            if (generalIndex[pieceOf[dagFrom[e]]] >= 0) {
                generalEdges[inGeneral++] = e;
            }
        }
    }

    /** The pair order of a program model (method ids are indexes into its method list). */
    public static ConstraintGraph of(ProgramModel model) {
        List<OrderPair> pairs = model.getPairs();
        int[] left = new int[pairs.size()];
        int[] right = new int[pairs.size()];
        for (int p = 0; p < left.length; p++) {
            left[p] = pairs.get(p).getLeft();
            right[p] = pairs.get(p).getRight();
        }
        return new ConstraintGraph(model.getMethods().size(), left, right);
    }

    public int methods() {
        return methods;
    }

    public int pairs() {
        return left.length;
    }

    /** Strongly connected components of the pair graph. */
    public int components() {
        return components;
    }

    /** Distinct edges between components. */
    public int condensedEdges() {
        return dagFrom.length;
    }

    /** Component of method v; an edge between components always goes to a smaller number. */
    public int componentOf(int v) {
        return component[v];
    }

    public int leftOf(int pair) {
        return left[pair];
    }

    public int rightOf(int pair) {
        return right[pair];
    }

    /** Successor components of every component in the condensed graph, for generators and tests. */
    public int[][] condensedSuccessors() {
        int[] degree = new int[components];
        for (int from : dagFrom) {
            degree[from]++;
        }
        int[][] successors = new int[components][];
        for (int c = 0; c < components; c++) {
            successors[c] = new int[degree[c]];
            degree[c] = 0;
        }
        for (int e = 0; e < dagFrom.length; e++) {
            successors[dagFrom[e]][degree[dagFrom[e]]++] = dagTo[e];
        }
        return successors;
    }

    @Override
    public String toString() {
        return String.format(
                "ConstraintGraph{methods=%d, pairs=%d, components=%d, condensedEdges=%d,"
                        + " chains=%d, generalPieces=%d}",
                methods,
                left.length,
                components,
                dagFrom.length,
                chainNodes.length,
                generalNodes.length);
    }

    private static int find(int[] parent, int c) {
        int root = c;
        while (parent[root] != root) {
            root = parent[root];
        }
        while (parent[c] != root) {
            int up = parent[c];
            parent[c] = root;
            c = up;
        }
        return root;
    }

    /** Pair indexes grouped by {@code end[p]}: pairs of v are at {@code start[v] .. start[v+1]). */
    private static int[] csr(int n, int[] end, int[] start) {
        for (int v : end) {
            start[v + 1]++;
        }
        for (int v = 0; v < n; v++) {
            start[v + 1] += start[v];
        }
        int[] fill = Arrays.copyOf(start, n);
        int[] pairs = new int[end.length];
        for (int p = 0; p < end.length; p++) {
            pairs[fill[end[p]]++] = p;
        }
        return pairs;
    }

    /** Iterative Tarjan; fills {@link #component} and returns the number of components. */
    private int stronglyConnected(int[] outStart, int[] outPairs) {
        int n = methods;
        int[] index = new int[n];
        int[] low = new int[n];
        Arrays.fill(index, -1);
        boolean[] onStack = new boolean[n];
        int[] stack = new int[n];
        int stackTop = 0;
        int[] callNode = new int[n];
        int[] callEdge = new int[n];
        int callTop = 0;
        int counter = 0;
        int found = 0;
        for (int root = 0; root < n; root++) {
            if (index[root] >= 0) {
                continue;
            }
            index[root] = low[root] = counter++;
            stack[stackTop++] = root;
            onStack[root] = true;
            callNode[callTop] = root;
            callEdge[callTop] = outStart[root];
            callTop++;
            while (callTop > 0) {
                int v = callNode[callTop - 1];
                if (callEdge[callTop - 1] < outStart[v + 1]) {
                    int w = right[outPairs[callEdge[callTop - 1]++]];
                    if (index[w] < 0) {
                        index[w] = low[w] = counter++;
                        stack[stackTop++] = w;
                        onStack[w] = true;
                        callNode[callTop] = w;
                        callEdge[callTop] = outStart[w];
                        callTop++;
                    } else if (onStack[w]) {
                        low[v] = Math.min(low[v], index[w]);
                    }
                } else {
                    callTop--;
                    if (low[v] == index[v]) {
                        int w;
                        do {
                            w = stack[--stackTop];
                            onStack[w] = false;
                            component[w] = found;
                        } while (w != v);
                        found++;
                    }
                    if (callTop > 0) {
                        int parent = callNode[callTop - 1];
                        low[parent] = Math.min(low[parent], low[v]);
                    }
                }
            }
        }
        return found;
    }

    /**
     * Breadth-first in-trees and out-trees inside every component, rooted at its first member: the
     * order multipliers of pairs inside a component are routed along them.
     */
    private void spanningTrees(int[] outStart, int[] outPairs, int[] inStart, int[] inPairs) {
        int[] fill = Arrays.copyOf(memberStart, components);
        int[] members = new int[methods];
        for (int v = 0; v < methods; v++) {
            members[fill[component[v]]++] = v;
        }
        boolean[] inSeen = new boolean[methods];
        boolean[] outSeen = new boolean[methods];
        for (int c = 0; c < components; c++) {
            int start = memberStart[c];
            int r = members[start];
            // In-tree: walk pairs backwards from the root, so every member has a path to it.
            int tail = start;
            inOrder[tail++] = r;
            inSeen[r] = true;
            for (int i = start; i < tail; i++) {
                int w = inOrder[i];
                for (int j = inStart[w]; j < inStart[w + 1]; j++) {
                    int p = inPairs[j];
                    int u = left[p];
                    if (!inSeen[u] && component[u] == c) {
                        inSeen[u] = true;
                        inTreePair[u] = p;
                        inOrder[tail++] = u;
                    }
                }
            }
            tail = start;
            outOrder[tail++] = r;
            outSeen[r] = true;
            for (int i = start; i < tail; i++) {
                int u = outOrder[i];
                for (int j = outStart[u]; j < outStart[u + 1]; j++) {
                    int p = outPairs[j];
                    int w = right[p];
                    if (!outSeen[w] && component[w] == c) {
                        outSeen[w] = true;
                        outTreePair[w] = p;
                        outOrder[tail++] = w;
                    }
                }
            }
        }
    }
}
