/**
 * The bytecode half of static analysis, ASM only, shared by the analysis and by devices (the agent
 * instruments classes as they load): method signatures as the program model names them, which
 * classes are the application's, and the application call graph. Subpackages: {@code jar} (a jar
 * read whole), {@code cfg} (control-flow graphs on the instrumenter's own bytes), {@code model}
 * (the program model's structure) and {@code instrument} (the probes).
 */
package dev.fieldprof.bytecode;
