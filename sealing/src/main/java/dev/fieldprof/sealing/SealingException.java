package dev.fieldprof.sealing;

/** A key that cannot be used, or a sealed payload that does not open; the message names which. */
public final class SealingException extends Exception {
    private static final long serialVersionUID = 1L;

    public SealingException(String message, Throwable cause) {
        super(message, cause);
    }

    public SealingException(String message) {
        super(message);
    }
}
