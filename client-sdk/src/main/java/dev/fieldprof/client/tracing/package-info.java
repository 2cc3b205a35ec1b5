/**
 * Opt-in path tracing on a device (docs/architecture.md, "Paths"; after AdapTracer,
 * docs/references.md): {@link dev.fieldprof.client.tracing.PathTracer} codes each thread's path
 * probe events with the {@link dev.fieldprof.paths.CallSitePathEncoder} and cuts them into
 * PathReport records for a {@link dev.fieldprof.client.tracing.PathReportSink} ({@link
 * dev.fieldprof.client.tracing.KafkaPathReportSink} publishes to {@code fieldprof.reports.paths},
 * reports the broker cannot take yet waiting in a bounded on-disk spool); {@link
 * dev.fieldprof.client.tracing.EdgeModelStore} holds the model to code with, fed from the compacted
 * {@code fieldprof.models.edges} topic by {@link dev.fieldprof.client.tracing.KafkaEdgeModelFeed}.
 * {@link dev.fieldprof.client.tracing.StagedPathTracer} instead appends raw events to a bounded
 * buffer per thread and codes them in batches (path format 4); both are {@link
 * dev.fieldprof.client.tracing.DevicePathTracer}s. Nothing is traced until a tracer is installed
 * with {@code PathProbes.install} (the device runtime does, for a device whose user opted in).
 *
 * <pre>{@code
 * BranchTable table = BranchTableText.fromClasspath(loader);   // written by the instrumenter
 * EdgeModelStore models = new EdgeModelStore("notes:1.0", table);
 * KafkaEdgeModelFeed feed = new KafkaEdgeModelFeed(bootstrap, models);
 * PathTracer tracer = new PathTracer(deviceId, "notes:1.0", 0, models,
 *         new KafkaPathReportSink(bootstrap, Duration.ofSeconds(30), stateDir.resolve("paths-spool"),
 *                 16 << 20),
 *         PathTracer.DEFAULT_MAX_REPORT_BYTES, false);
 * PathProbes.install(tracer);
 * ...
 * tracer.endEpoch();                                            // cut and send reports
 * }</pre>
 */
package dev.fieldprof.client.tracing;
