package dev.fieldprof.samples.notes;

/** What a user can ask the app to do; sealed so the dispatcher's switch is exhaustive. */
sealed interface Command
        permits Command.Add,
                Command.Edit,
                Command.Tag,
                Command.Search,
                Command.Export,
                Command.Undo,
                Command.Stats {
    record Add(String title, String body) implements Command {}

    record Edit(long id, String body) implements Command {}

    record Tag(long id, String tag) implements Command {}

    record Search(String query) implements Command {}

    record Export(String tag) implements Command {}

    record Undo() implements Command {}

    record Stats() implements Command {}
}
