/**
 * Adaptive path profiling with an integer arithmetic coder (after AdapTracer, docs/references.md;
 * docs/architecture.md, "Paths"): the device side ({@link dev.fieldprof.paths.CallSitePathEncoder})
 * and everything the server needs to decode and to learn the next model ({@link
 * dev.fieldprof.paths.PathDecoder}, {@link dev.fieldprof.paths.EdgeCounter}, {@link
 * dev.fieldprof.paths.ModelUpdater}). No dependency beyond the JDK, so the jobs reuse it as it is.
 *
 * <p>The loop: a device codes each thread's events (method entries, the out-edge taken at each
 * block with several out-edges, normal and exceptional exits) with {@link
 * dev.fieldprof.paths.CallSitePathEncoder} (format version 3: one symbol per event at its CFG
 * position; the {@code PathEncoder} test fixture writes version 1, which devices no longer write
 * and which still decodes) against edge model version M and sends reports that name M; the server
 * decodes each report with the model it names, counts edges and successor events over a window, and
 * publishes M+1; devices switch to M+1 between reports. Device and server must agree only on the
 * {@link dev.fieldprof.paths.BranchTable} (branch nodes and their fan-outs), which both derive from
 * the same bytecode.
 */
package dev.fieldprof.paths;
