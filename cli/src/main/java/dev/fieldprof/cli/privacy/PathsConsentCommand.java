package dev.fieldprof.cli.privacy;

import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.client.PathsConsent;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof privacy paths-consent}: the machine's user turns path tracing on or off for the
 * programs they run, by writing the consent file the device SDK reads ({@link PathsConsent}) in the
 * user's state directory. A program's own settings cannot turn path tracing on; this is the switch
 * that can.
 */
@Command(
        name = "paths-consent",
        mixinStandardHelpOptions = true,
        description =
                "Turn path tracing on or off for your programs: writes "
                        + PathsConsent.FILE
                        + " in your state directory (path reports are NOT randomized: they share"
                        + " the paths the traced methods took). Prints the file it wrote.")
public final class PathsConsentCommand implements Callable<Integer> {

    @ArgGroup(exclusive = true, multiplicity = "1")
    Choice choice;

    /** Exactly one of --on and --off. */
    static final class Choice {
        @Option(names = "--on", required = true, description = "Allow path tracing.")
        boolean on;

        @Option(names = "--off", required = true, description = "Refuse path tracing.")
        boolean off;
    }

    @Option(
            names = "--debug",
            description = "With --on: also send the raw events (debug mode, larger reports).")
    boolean debug;

    @Option(
            names = "--state-dir",
            paramLabel = "DIR",
            description =
                    "Your state directory, where the SDK looks for the file: by default"
                            + " -Dfieldprof.state.dir, else ~/.fieldprof.")
    Path stateDir;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (debug && !choice.on) {
            throw new CliFailure("--debug goes with --on");
        }
        Path dir = stateDir != null ? stateDir : PathsConsent.userStateDir();
        if (dir == null) {
            throw new CliFailure("no home directory: give --state-dir");
        }
        Path written;
        try {
            written = PathsConsent.write(dir, choice.on, debug);
        } catch (IOException | RuntimeException e) {
            throw new CliFailure(
                    "cannot write the consent file in " + dir + ": " + e.getMessage(), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(
                "path tracing "
                        + (choice.on ? (debug ? "on, with raw events" : "on") : "off")
                        + ": wrote "
                        + written.toAbsolutePath());
        out.flush();
        return 0;
    }
}
