/**
 * Internal to the SDK: what a device keeps on disk across restarts (the counts of an epoch that has
 * not reached k events yet) and the crash-safe file replacement every state file is written with.
 */
package dev.fieldprof.client.state;
