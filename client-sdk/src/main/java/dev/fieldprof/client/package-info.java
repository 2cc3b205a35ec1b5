/**
 * The client SDK's API: what a program, its build and its operators touch.
 *
 * <ul>
 *   <li>{@link dev.fieldprof.client.DeviceRuntime} with its {@link
 *       dev.fieldprof.client.ClientConfig}: one device's profiling runtime (exact counts per epoch,
 *       one randomized report per epoch, the privacy ledger and budget, the transport);
 *   <li>{@link dev.fieldprof.client.Probes} and {@link dev.fieldprof.client.PathProbes}: the static
 *       entry points instrumented code calls; their signatures are a contract with the instrumenter
 *       and never change within a major version;
 *   <li>{@link dev.fieldprof.client.DeviceMetricsMXBean}: the JMX view ({@code
 *       dev.fieldprof:type=DeviceRuntime}).
 * </ul>
 *
 * <p>The subpackages ({@code ledger}, {@code state}, {@code transport}, {@code tracing}) are the
 * runtime's internals: public only because the runtime spans packages, not for programs to call.
 * Nothing in this package throws into, blocks or prints on the host program.
 */
package dev.fieldprof.client;
