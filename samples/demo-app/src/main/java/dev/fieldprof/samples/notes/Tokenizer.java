package dev.fieldprof.samples.notes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Splits text into normalized words; the hottest code of the app. */
final class Tokenizer {
    private Tokenizer() {}

    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < text.length(); i++) {
            if (isWordChar(text.charAt(i))) {
                if (start < 0) {
                    start = i;
                }
            } else if (start >= 0) {
                addWord(words, text.substring(start, i));
                start = -1;
            }
        }
        if (start >= 0) {
            addWord(words, text.substring(start));
        }
        return words;
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '-';
    }

    private static void addWord(List<String> words, String raw) {
        String word = normalize(raw);
        if (!StopWords.contains(word)) {
            words.add(word);
        }
    }

    static String normalize(String raw) {
        String lower = raw.toLowerCase(Locale.ROOT);
        return lower.endsWith("s") && lower.length() > 3
                ? lower.substring(0, lower.length() - 1)
                : lower;
    }
}
