package dev.fieldprof.schemas;

/** Bytes that are not a readable record of the expected type; the message says why. */
public final class RecordDecodingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RecordDecodingException(String message) {
        super(message);
    }

    public RecordDecodingException(String message, Throwable cause) {
        super(message, cause);
    }
}
