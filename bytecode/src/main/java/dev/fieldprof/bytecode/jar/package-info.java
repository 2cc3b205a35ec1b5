/**
 * A jar read whole into memory, and one ASM pass over it that finds what may be called without a
 * call site in the application (lambdas, method references, reflection targets).
 */
package dev.fieldprof.bytecode.jar;
