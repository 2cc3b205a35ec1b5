package dev.fieldprof.samples.notes;

import java.util.Set;

/** Words too common to index. */
final class StopWords {
    private static final Set<String> WORDS =
            Set.of("the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "is", "it");

    private StopWords() {}

    static boolean contains(String word) {
        return WORDS.contains(word);
    }
}
