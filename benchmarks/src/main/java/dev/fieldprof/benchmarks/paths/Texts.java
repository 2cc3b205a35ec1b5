package dev.fieldprof.benchmarks.paths;

import java.util.SplittableRandom;

/** Random text for the path workloads. */
final class Texts {
    private static final String[] WORDS = {
        "alpha", "beta", "gamma", "delta", "42", "3.5", "e", "  ", "key=value", "[a]", "x,y", "Zeta"
    };

    private Texts() {}

    static String text(SplittableRandom random, int maxWords) {
        int words = random.nextInt(maxWords / 4 + 1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < words; i++) {
            if (i > 0) {
                out.append(random.nextInt(5) == 0 ? "," : " ");
            }
            out.append(WORDS[random.nextInt(WORDS.length)]);
        }
        return out.toString();
    }
}
