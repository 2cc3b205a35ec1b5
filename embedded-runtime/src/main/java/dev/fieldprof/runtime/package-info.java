/**
 * The embedded runtime: a real Kafka broker in KRaft mode and a Flink MiniCluster in one JVM, with
 * fieldprof's topics created, and a client of Flink's REST API. The demo, the integration tests and
 * the whole-pipeline benchmarks run on it (docs/architecture.md, "Runtimes").
 */
package dev.fieldprof.runtime;
