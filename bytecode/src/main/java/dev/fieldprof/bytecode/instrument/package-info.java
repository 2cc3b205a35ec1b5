/**
 * Instrumentation: the method-entry probe of every method of V and, for path tracing, the path
 * probes of the selected methods. {@link dev.fieldprof.bytecode.instrument.ProbeTransform} is the
 * one class transform, applied to a whole jar by {@code fieldprof instrument} and to each class as
 * it loads by the device agent.
 */
package dev.fieldprof.bytecode.instrument;
