package dev.fieldprof.estimation.evaluation;

import dev.fieldprof.estimation.ConstraintGraph;
import dev.fieldprof.ldp.RandomSource;

/**
 * What the simulated devices of the accuracy study execute: the program's pair order and, per
 * device, the exact method-entry counts of one epoch (before the device samples k of them).
 */
public interface DeviceWorkload {
    /** A short name for tables and charts. */
    String name();

    /** The program's methods and order pairs. */
    ConstraintGraph graph();

    /**
     * The exact counts of one epoch of device {@code device}: |V| non-negative counts whose total
     * is at least {@code minimumEvents}.
     */
    long[] epoch(int device, long minimumEvents, RandomSource random);
}
