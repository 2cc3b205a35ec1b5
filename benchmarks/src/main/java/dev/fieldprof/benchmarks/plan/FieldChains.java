package dev.fieldprof.benchmarks.plan;

import java.util.List;
import java.util.TreeSet;

/**
 * The field data of the probe-distribution study: each site's full trace, the call chains it
 * exercised (its trace read with every method probed, the Full technique of probe distribution,
 * docs/references.md), and where in the trace Full reports each of them. Immutable after
 * construction, apart from the shared {@link ChainTrie} that later replays extend with the chains
 * variants report.
 */
public final class FieldChains {
    private final int methodCount;
    private final int maxLength;
    private final ChainTrie trie;
    private final List<ChainTrace> traces;
    private final int[][] fullAt;
    private final int[][] siteChains;
    private final int[] exercised;

    /**
     * @param methodCount |V|: every method id in the traces is in {@code [0, methodCount)}
     * @param maxLength most methods in one chain, as in the planner's events
     * @param traces one full trace per site
     */
    public FieldChains(int methodCount, int maxLength, List<ChainTrace> traces) {
        this.methodCount = methodCount;
        this.maxLength = maxLength;
        this.trie = new ChainTrie();
        this.traces = List.copyOf(traces);
        this.fullAt = new int[traces.size()][];
        this.siteChains = new int[traces.size()][];
        TreeSet<Integer> all = new TreeSet<>();
        for (int s = 0; s < traces.size(); s++) {
            ChainTrace trace = traces.get(s);
            for (int t = 0; t < trace.length(); t++) {
                int e = trace.event(t);
                int m = e >= 0 ? e : ~e;
                if (m >= methodCount) {
                    throw new IllegalArgumentException(
                            "site "
                                    + s
                                    + " names method "
                                    + m
                                    + " outside [0, "
                                    + methodCount
                                    + ")");
                }
            }
            int[] at = new int[trace.length()];
            TreeSet<Integer> chains = new TreeSet<>();
            ChainReplay.replay(
                    trace,
                    null,
                    maxLength,
                    trie,
                    (location, chain) -> {
                        at[location] = chain;
                        chains.add(chain);
                    });
            fullAt[s] = at;
            siteChains[s] = chains.stream().mapToInt(Integer::intValue).toArray();
            all.addAll(chains);
        }
        this.exercised = all.stream().mapToInt(Integer::intValue).toArray();
    }

    public int methodCount() {
        return methodCount;
    }

    public int maxLength() {
        return maxLength;
    }

    public int sites() {
        return traces.size();
    }

    public ChainTrace trace(int site) {
        return traces.get(site);
    }

    public ChainTrie trie() {
        return trie;
    }

    /**
     * The chain Full reports at {@code location} of the site's trace, or {@link ChainTrie#ROOT}.
     */
    public int fullReportAt(int site, int location) {
        return fullAt[site][location];
    }

    /** The distinct chains the site exercised (trie nodes, ascending). */
    public int[] chains(int site) {
        return siteChains[site].clone();
    }

    /** The distinct chains any site exercised (trie nodes, ascending). */
    public int[] exercised() {
        return exercised.clone();
    }

    /** The methods of a chain, root first. */
    public int[] methods(int chain) {
        return trie.methods(chain);
    }

    /** Sites, exercised chains, and the mean and largest number of chains per site. */
    public String summary() {
        int max = 0;
        long sum = 0;
        long events = 0;
        for (int s = 0; s < sites(); s++) {
            max = Math.max(max, siteChains[s].length);
            sum += siteChains[s].length;
            events += traces.get(s).length();
        }
        return String.format(
                java.util.Locale.ROOT,
                "%d sites, %d trace events, %d distinct chains exercised (%.0f per site, max %d)",
                sites(),
                events,
                exercised.length,
                (double) sum / Math.max(1, sites()),
                max);
    }
}
