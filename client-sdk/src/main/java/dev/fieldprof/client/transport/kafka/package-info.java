/**
 * Internal to the SDK: the Kafka transport of frequency reports, and the producer settings every
 * device-side Kafka publisher shares (idempotent, acks=all, lz4).
 */
package dev.fieldprof.client.transport.kafka;
