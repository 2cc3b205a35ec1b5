package dev.fieldprof.bytecode.jar;

/** A jar that cannot be used at all (missing, not a zip, signed without permission to strip). */
public final class InvalidJarException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidJarException(String message) {
        super(message);
    }
}
