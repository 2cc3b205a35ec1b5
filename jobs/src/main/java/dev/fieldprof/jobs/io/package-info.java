/**
 * What the fieldprof jobs share at their edges: Kafka sources and sinks of raw and encoded records
 * ({@link dev.fieldprof.jobs.io.KafkaRecords}), {@code --key value} option parsing ({@link
 * dev.fieldprof.jobs.io.JobArguments}) and dead letters ({@link
 * dev.fieldprof.jobs.io.DeadLetterRecords}), and the contract of the topics with the cluster: their
 * settings ({@link dev.fieldprof.jobs.io.TopicSettings}) and each party's ACLs ({@link
 * dev.fieldprof.jobs.io.FieldprofAcls}).
 */
package dev.fieldprof.jobs.io;
