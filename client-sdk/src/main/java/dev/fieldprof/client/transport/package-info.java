/**
 * Internal to the SDK: where randomized reports go. Every transport publishes from its own
 * background thread out of a bounded queue, so {@code submit} never blocks the program; reports a
 * broker cannot take wait in a bounded on-disk spool; whatever is dropped is counted with its
 * {@link dev.fieldprof.client.transport.DropReason}. The Kafka transport ({@code transport.kafka})
 * is loaded by name, so that a device without Kafka never links Kafka's classes.
 */
package dev.fieldprof.client.transport;
