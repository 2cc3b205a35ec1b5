package dev.fieldprof.samples.notes;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A small note-taking application: the program fieldprof's demo instruments and runs on simulated
 * devices. Its methods range from hot (tokenizing) to rare (undo, export of an empty tag).
 */
public final class NotesApp {
    private final Map<Long, Note> notes = new TreeMap<>();
    private final SearchIndex index = new SearchIndex();
    private final Deque<Note> history = new ArrayDeque<>();
    private final MarkdownExporter exporter = new MarkdownExporter();
    private long nextId = 1;
    private int failures;

    /** Runs one command and returns a one-line result, as the app's UI would show it. */
    public String execute(Command command) {
        try {
            // Java 17: pattern matching for switch is still a preview, so instanceof patterns.
            if (command instanceof Command.Add add) {
                return add(add.title(), add.body());
            } else if (command instanceof Command.Edit edit) {
                return edit(edit.id(), edit.body());
            } else if (command instanceof Command.Tag tag) {
                return tag(tag.id(), tag.tag());
            } else if (command instanceof Command.Search search) {
                return search(search.query());
            } else if (command instanceof Command.Export export) {
                return exporter.export(byTag(export.tag()));
            } else if (command instanceof Command.Undo) {
                return undo();
            }
            return stats();
        } catch (IllegalArgumentException e) {
            failures++;
            return "error: " + e.getMessage();
        }
    }

    private String add(String title, String body) {
        Note note = new Note(nextId++, title, body, Set.of(), 1);
        store(note);
        return "added " + note.id();
    }

    private String edit(long id, String body) {
        Note old = find(id).orElseThrow(() -> new IllegalArgumentException("no note " + id));
        history.push(old);
        index.remove(old);
        store(old.withBody(body));
        return "edited " + id;
    }

    private String tag(long id, String tag) {
        Note old = find(id).orElseThrow(() -> new IllegalArgumentException("no note " + id));
        history.push(old);
        store(old.withTag(Tokenizer.normalize(tag)));
        return "tagged " + id;
    }

    private String search(String query) {
        List<Long> hits = index.search(query, 5);
        return hits.isEmpty() ? "no match" : "found " + hits;
    }

    private String undo() {
        Note previous = history.poll();
        if (previous == null) {
            return "nothing to undo";
        }
        index.remove(notes.get(previous.id()));
        store(previous);
        return "restored " + previous.id();
    }

    private String stats() {
        return notes.size()
                + " notes, "
                + index.vocabularySize()
                + " words, "
                + failures
                + " errors";
    }

    private void store(Note note) {
        notes.put(note.id(), note);
        index.index(note);
    }

    private Optional<Note> find(long id) {
        return Optional.ofNullable(notes.get(id));
    }

    private List<Note> byTag(String tag) {
        String wanted = Tokenizer.normalize(tag);
        return notes.values().stream().filter(n -> n.tags().contains(wanted)).toList();
    }

    public int noteCount() {
        return notes.size();
    }
}
