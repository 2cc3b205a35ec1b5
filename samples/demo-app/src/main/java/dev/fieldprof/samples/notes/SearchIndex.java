package dev.fieldprof.samples.notes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** An inverted index from words to note ids with term counts, ranked by a simple tf score. */
final class SearchIndex {
    private final Map<String, Map<Long, Integer>> postings = new HashMap<>();

    void index(Note note) {
        for (String word : note.words()) {
            postings.computeIfAbsent(word, w -> new HashMap<>()).merge(note.id(), 1, Integer::sum);
        }
    }

    void remove(Note note) {
        for (String word : note.words()) {
            Map<Long, Integer> notes = postings.get(word);
            if (notes != null) {
                notes.remove(note.id());
                if (notes.isEmpty()) {
                    postings.remove(word);
                }
            }
        }
    }

    List<Long> search(String query, int limit) {
        Map<Long, Double> scores = new HashMap<>();
        for (String word : Tokenizer.words(query)) {
            Map<Long, Integer> notes = postings.getOrDefault(word, Map.of());
            for (Map.Entry<Long, Integer> hit : notes.entrySet()) {
                scores.merge(hit.getKey(), score(hit.getValue(), notes.size()), Double::sum);
            }
        }
        List<Map.Entry<Long, Double>> ranked = new ArrayList<>(scores.entrySet());
        ranked.sort(
                Map.Entry.<Long, Double>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()));
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < Math.min(limit, ranked.size()); i++) {
            ids.add(ranked.get(i).getKey());
        }
        return ids;
    }

    private static double score(int termCount, int documentFrequency) {
        return (1 + Math.log(termCount)) / (1 + Math.log(1 + documentFrequency));
    }

    int vocabularySize() {
        return postings.size();
    }
}
