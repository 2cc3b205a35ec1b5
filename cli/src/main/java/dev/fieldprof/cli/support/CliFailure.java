package dev.fieldprof.cli.support;

/**
 * A failure the user can act on: the command prints its message as one line and exits 1. Bad option
 * values are usage errors instead ({@link picocli.CommandLine.ParameterException}, exit 2).
 */
public final class CliFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CliFailure(String message) {
        super(message);
    }

    public CliFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
