/**
 * The Kafka transport of frequency reports, and the producer settings every device-side Kafka
 * publisher shares (idempotent, acks=all, lz4). A program normally gets its transport from {@code
 * ReportTransports} through its {@code ClientConfig}; tools that drive a transport of their own
 * (the CLI's load and demo commands, the deploy scripts' devices) build it from one checked
 * settings object:
 *
 * <pre>{@code
 * KafkaReportTransport transport = new KafkaReportTransport(
 *         KafkaTransportSettings.builder("broker:9092", stateDir.resolve("spool"))
 *                 .timeout(Duration.ofSeconds(10))
 *                 .build());
 * transport.submit(report);
 * transport.close(Duration.ofSeconds(2));
 * }</pre>
 */
package dev.fieldprof.client.transport.kafka;
