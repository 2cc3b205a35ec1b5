package dev.fieldprof.benchmarks.paths;

import com.google.common.base.CharMatcher;
import com.google.common.base.Joiner;
import com.google.common.base.Splitter;
import com.google.common.base.Strings;
import com.google.common.collect.HashMultiset;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.Lists;
import com.google.common.collect.Multiset;
import com.google.common.primitives.Ints;
import java.util.List;
import java.util.SplittableRandom;

/** A seeded guava workload: splitting, joining, multisets, immutable collections, parsing. */
public final class GuavaWorkload {
    private GuavaWorkload() {}

    /** Runs {@code n} rounds; returns a checksum so the work is not optimized away. */
    public static long run(long seed, int n) {
        SplittableRandom random = new SplittableRandom(seed);
        Splitter splitter = Splitter.on(CharMatcher.anyOf(", ")).trimResults().omitEmptyStrings();
        Joiner joiner = Joiner.on('|').skipNulls();
        long sum = 0;
        for (int i = 0; i < n; i++) {
            String s = Texts.text(random, 40);
            List<String> parts = splitter.splitToList(s);
            Multiset<String> counts = HashMultiset.create(parts);
            sum += counts.count("alpha") + counts.elementSet().size();
            ImmutableList<String> list = ImmutableList.copyOf(parts);
            sum += joiner.join(list).length();
            ImmutableSortedMap.Builder<String, Integer> map = ImmutableSortedMap.naturalOrder();
            for (Multiset.Entry<String> e : counts.entrySet()) {
                map.put(e.getElement(), e.getCount());
            }
            sum += map.build().headMap("m").size();
            for (String p : parts) {
                Integer parsed = Ints.tryParse(p);
                sum += parsed == null ? 0 : parsed;
            }
            sum += Lists.partition(list, 3).size();
            sum += Strings.padStart(s, 20, '.').length() + CharMatcher.digit().countIn(s);
        }
        return sum;
    }
}
