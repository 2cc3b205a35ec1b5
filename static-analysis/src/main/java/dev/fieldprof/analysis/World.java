package dev.fieldprof.analysis;

/**
 * Who else can call into the jar. A {@link #LIBRARY}'s public and protected methods have callers
 * outside the jar and its public types can be extended by its users; an {@link #APPLICATION} is
 * entered only through main methods, callbacks and the other implicit entries. {@link #AUTO} picks
 * APPLICATION when the manifest names a Main-Class, else LIBRARY.
 */
public enum World {
    AUTO,
    APPLICATION,
    LIBRARY
}
