package dev.fieldprof.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the {@code fieldprof} command line in this JVM and keeps what it printed, for tests. */
public final class CliCapture {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** Runs {@code fieldprof ARGS...} with the real command tree; returns the exit code. */
    public int run(String... args) {
        CommandLine cli = FieldprofCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    /** Everything printed to standard output so far. */
    public String out() {
        return out.toString();
    }

    /** Everything printed to standard error so far. */
    public String err() {
        return err.toString();
    }
}
