/**
 * The shuffler of the shuffled mode ({@link dev.fieldprof.jobs.shuffle.ShufflerJob}): a Flink job,
 * run apart from the analyst's, that takes the devices' sealed reports, forwards each once, holds
 * them per (app version, config) until a batch of at least the minimum size can be released, and
 * releases it in a uniformly random order without device ids, sequences or arrival times. It never
 * opens a payload: it holds no key that could.
 */
package dev.fieldprof.jobs.shuffle;
