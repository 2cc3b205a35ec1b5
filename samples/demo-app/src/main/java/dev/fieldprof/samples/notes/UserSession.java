package dev.fieldprof.samples.notes;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Drives the app like one user session: a seeded random mix of commands whose proportions depend on
 * the user's habits (the seed), the way random GUI testing drives apps in the field studies.
 */
public final class UserSession {
    private static final List<String> VOCABULARY =
            List.of(
                    "meeting",
                    "budget",
                    "release",
                    "bug",
                    "groceries",
                    "idea",
                    "travel",
                    "invoice",
                    "garden",
                    "recipe",
                    "stream",
                    "window",
                    "kafka",
                    "flink",
                    "privacy",
                    "estimate",
                    "profile",
                    "method",
                    "the",
                    "and",
                    "of",
                    "notes",
                    "plans",
                    "tasks");

    private final SplittableRandom random;
    private final double searchWeight;
    private final double editWeight;

    /** A user whose habits are drawn from {@code userSeed}; each run differs by {@code runSeed}. */
    public UserSession(long userSeed, long runSeed) {
        SplittableRandom habits = new SplittableRandom(userSeed);
        this.searchWeight = 0.2 + 0.6 * habits.nextDouble();
        this.editWeight = 0.1 + 0.3 * habits.nextDouble();
        this.random = new SplittableRandom(userSeed * 31 + runSeed);
    }

    /** Runs {@code commands} commands against a fresh app and returns the last result. */
    public String run(int commands) {
        NotesApp app = new NotesApp();
        String last = "";
        for (int i = 0; i < commands; i++) {
            last = app.execute(nextCommand(app));
        }
        return last;
    }

    private Command nextCommand(NotesApp app) {
        double roll = random.nextDouble();
        if (app.noteCount() == 0 || roll < 0.15) {
            return new Command.Add(phrase(2), phrase(12));
        }
        long id = 1 + random.nextInt(app.noteCount() + 1); // sometimes one past the end: an error
        if (roll < 0.15 + searchWeight) {
            return new Command.Search(phrase(2));
        }
        if (roll < 0.15 + searchWeight + editWeight) {
            return new Command.Edit(id, phrase(10));
        }
        double rare = random.nextDouble();
        if (rare < 0.5) {
            return new Command.Tag(id, word());
        } else if (rare < 0.7) {
            return new Command.Stats();
        } else if (rare < 0.9) {
            return new Command.Undo();
        }
        return new Command.Export(word());
    }

    private String phrase(int words) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < words; i++) {
            text.append(i == 0 ? "" : " ").append(word());
        }
        return text.toString();
    }

    private String word() {
        return VOCABULARY.get(random.nextInt(VOCABULARY.size()));
    }

    /** Command-line entry: {@code NotesMain [userSeed] [runs] [commandsPerRun]}. */
    public static void main(String[] args) {
        long userSeed = args.length > 0 ? Long.parseLong(args[0]) : 1;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int commands = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        for (int run = 0; run < runs; run++) {
            System.out.println(new UserSession(userSeed, run).run(commands));
        }
    }
}
