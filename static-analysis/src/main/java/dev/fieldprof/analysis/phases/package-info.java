/**
 * What each phase of an analysis costs (wall and CPU seconds, heap): measured by {@link
 * dev.fieldprof.analysis.phases.PhaseMeter} and printed by {@code fieldprof analyze}. Below the
 * analysis and its Soot loader, so both can report phases.
 */
package dev.fieldprof.analysis.phases;
