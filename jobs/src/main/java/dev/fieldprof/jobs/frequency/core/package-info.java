/**
 * The Flink-free core of the frequency job, shared by its functions, its validation and the
 * benchmarks: decoding and validating reports against their program's shape ({@link
 * dev.fieldprof.jobs.frequency.core.ReportValidation}), the program index with its preprocessed
 * projection, sequence windows of deduplication, dead letters, and the estimate of a window sum
 * ({@link dev.fieldprof.jobs.frequency.core.WindowEstimates}). The job's graph and options stay in
 * {@code dev.fieldprof.jobs.frequency}, which depends on this package and never the other way.
 */
package dev.fieldprof.jobs.frequency.core;
