package dev.fieldprof.paths;

/**
 * A path report that cannot be decoded: unknown format version, a model version other than the
 * decoder's, a truncated header, or a coded stream that fails its check. The message is the reason
 * a dead letter carries.
 */
public final class InvalidPathReportException extends Exception {
    private static final long serialVersionUID = 1L;

    public InvalidPathReportException(String reason) {
        super(reason);
    }

    public InvalidPathReportException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
