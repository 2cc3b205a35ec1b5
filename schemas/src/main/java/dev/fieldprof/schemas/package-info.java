/**
 * The records that pass between the parts of fieldprof (Avro, generated from {@code
 * src/main/avro}), their single-object codec with every published schema version kept readable, and
 * the topic names: the contract between devices, jobs and readers (docs/architecture.md, "Topics
 * and records").
 */
package dev.fieldprof.schemas;
