/**
 * What path probes hand their events to: {@link dev.fieldprof.client.probe.PathProbeHandler} (the
 * device's tracer in production, baseline tracers in benchmarks) and the per-thread {@link
 * dev.fieldprof.client.probe.PathProbeHandle} each traced method keeps while it runs. Instrumented
 * code never names these types (it holds the handle as an {@code Object}), so they may move without
 * touching an instrumented jar.
 */
package dev.fieldprof.client.probe;
