/**
 * The probe planner: spreads path-tracing probes (one probe = one method's path tracing) over
 * {@code n} program variants of at most {@code h_bound} cost units each, with the strategies of
 * probe distribution (Diep, Cohen, Elbaum, ISSRE 2006; docs/references.md; Sections 4.2-4.3):
 * random, balanced, packed and balanced-packed distributions over probes, events (call chains) and
 * clusters (a root and what it reaches). {@link dev.fieldprof.analysis.plan.ProbePlanner} is the
 * entry point; the plan travels in the program model as its {@code probePlan}. Methods cost 1 each
 * (the published unit), 1 + their branch blocks, or either times their relative call rate ({@link
 * dev.fieldprof.analysis.plan.CallRates}, from the frequency estimates).
 *
 * <p>Pure Java on the model's method ids and call graph: no Soot, deterministic for a seed.
 */
package dev.fieldprof.analysis.plan;
