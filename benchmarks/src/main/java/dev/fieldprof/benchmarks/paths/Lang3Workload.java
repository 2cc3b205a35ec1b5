package dev.fieldprof.benchmarks.paths;

import java.util.SplittableRandom;
import org.apache.commons.lang3.ArrayUtils;
import org.apache.commons.lang3.StringUtils;
import org.apache.commons.lang3.math.NumberUtils;

/** A seeded commons-lang3 workload: string utilities on random text and numbers. */
public final class Lang3Workload {
    private Lang3Workload() {}

    /** Runs {@code n} rounds; returns a checksum so the work is not optimized away. */
    public static long run(long seed, int n) {
        SplittableRandom random = new SplittableRandom(seed);
        long sum = 0;
        for (int i = 0; i < n; i++) {
            String s = Texts.text(random, 40);
            sum += StringUtils.isBlank(s) ? 1 : 0;
            sum += StringUtils.capitalize(s).hashCode();
            sum += StringUtils.abbreviate(s, 4 + random.nextInt(20)).length();
            sum += StringUtils.countMatches(s, "a");
            sum += StringUtils.split(s).length;
            sum += StringUtils.leftPad(s, 30, '*').length();
            sum += StringUtils.substringBetween(s + "[x]", "[", "]").length();
            sum += StringUtils.replace(s, "e", "E").hashCode();
            sum += StringUtils.isNumeric(s) ? 1 : 0;
            String number = random.nextInt(4) == 0 ? s : Integer.toString(random.nextInt(100000));
            sum += NumberUtils.isCreatable(number) ? NumberUtils.toInt(number, -1) : 0;
            int[] values = random.ints(1 + random.nextInt(10), 0, 100).toArray();
            ArrayUtils.reverse(values);
            sum += ArrayUtils.indexOf(values, 42) + (ArrayUtils.contains(values, 7) ? 1 : 0);
        }
        return sum;
    }
}
