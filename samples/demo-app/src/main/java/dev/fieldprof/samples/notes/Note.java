package dev.fieldprof.samples.notes;

import java.util.List;
import java.util.Set;

/** One note: immutable, so edits make new versions that the undo history keeps. */
public record Note(long id, String title, String body, Set<String> tags, long version) {

    public Note {
        if (title == null || title.isBlank()) {
            throw new IllegalArgumentException("a note needs a title");
        }
        tags = Set.copyOf(tags);
    }

    Note withBody(String newBody) {
        return new Note(id, title, newBody, tags, version + 1);
    }

    Note withTag(String tag) {
        java.util.HashSet<String> more = new java.util.HashSet<>(tags);
        more.add(tag);
        return new Note(id, title, body, more, version + 1);
    }

    List<String> words() {
        return Tokenizer.words(title + " " + body);
    }
}
