package dev.fieldprof.samples.notes;

import java.util.List;

/** Renders notes as Markdown; used rarely, so its methods are cold in the field. */
final class MarkdownExporter {
    String export(List<Note> notes) {
        if (notes.isEmpty()) {
            return emptyExport();
        }
        StringBuilder out = new StringBuilder();
        for (Note note : notes) {
            out.append(heading(note)).append('\n').append(escape(note.body())).append("\n\n");
        }
        return "exported " + notes.size() + " notes, " + out.length() + " chars";
    }

    private static String heading(Note note) {
        return "## " + escape(note.title()) + " (v" + note.version() + ")";
    }

    private static String escape(String text) {
        return text.replace("*", "\\*").replace("_", "\\_");
    }

    private static String emptyExport() {
        return "exported 0 notes";
    }
}
