package dev.fieldprof.client;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Keeps the traced body of every path probe out of line: one compiled copy, called from every
 * instrumented method, instead of a copy of the tracer inlined into each of them. The probes' null
 * check still inlines.
 *
 * <p>Why: HotSpot inlines small static methods into their callers, and the path tracer's probe path
 * (the frame, the coder step, the report checks) is small enough, so every branch, enter and exit
 * of every hot instrumented method got its own copy. The workloads then ran slower and, for gson,
 * differently from one JVM to the next (the tracer's gson workload: 27 ms, 21-29 per JVM, inlined;
 * 16.5 ms, 16.3-16.9, out of line; PAP on the same probes gains as much; every program's figures
 * are in benchmarks/README.md).
 *
 * <p>How: a compiler directive (HotSpot's Compiler Control, the {@code Compiler.directives_add}
 * command of {@code jcmd}, here through the DiagnosticCommand MBean) that forbids inlining {@code
 * PathProbes.traceEnter}, {@code traceBranch}, {@code traceExit} and {@code traceExitExceptionally}
 * into any method. Added once per JVM, when a handler is first installed, and only if the JVM has
 * no directives of its own (a directive matching every method would shadow them). On a JVM without
 * the MBean or the command nothing changes and tracing works as before.
 *
 * <p>Probes that run with no handle (a dispatching site whose invocation is not traced) keep their
 * inlined null check and cost what they did: guava's workload with every handle null took
 * 4.36/4.69/4.31 ms with the directive, 4.91/4.43/4.38 without (three JVMs each). The directive
 * still waits for a handler, so a device that does not trace paths leaves its JIT alone.
 */
final class ProbeInlining {
    /** The methods of {@link PathProbes} kept out of line: the traced bodies of the probes. */
    static final List<String> OUT_OF_LINE =
            List.of("traceEnter", "traceBranch", "traceExit", "traceExitExceptionally");

    /**
     * The directive: in every compiled method, do not inline the traced probe bodies. Named one by
     * one: a pattern such as {@code trace*} also caught {@code tracerOf}, the entry's mask check,
     * which must inline (out of line it cost every entry a call, traced or not).
     */
    static final String DIRECTIVE =
            OUT_OF_LINE.stream()
                    .map(m -> "\"-dev/fieldprof/client/PathProbes." + m + "\"")
                    .collect(Collectors.joining(", ", "[{ match: \"*.*\", inline: [", "] }]"));

    private static final String COMMANDS = "com.sun.management:type=DiagnosticCommand";
    private static final String[] ARGUMENTS = {String[].class.getName()};
    private static final AtomicBoolean TRIED = new AtomicBoolean();
    private static volatile String outcome = "not tried";

    private ProbeInlining() {}

    /**
     * Adds the directive unless this JVM already tried; never throws.
     *
     * @return true if the directive is in force (added now or before)
     */
    static boolean keepTracedBodiesOutOfLine() {
        if (TRIED.compareAndSet(false, true)) {
            outcome = addDirective();
        }
        return outcome.equals("added");
    }

    /** What the attempt did: "added", "not tried", or why the directive was left out. */
    static String outcome() {
        return outcome;
    }

    private static String addDirective() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName commands = new ObjectName(COMMANDS);
            String present = run(server, commands, "compilerDirectivesPrint");
            if (present.indexOf("Directive:") != present.lastIndexOf("Directive:")) {
                return "left out: the JVM has compiler directives of its own";
            }
            Path file = Files.createTempFile("fieldprof-probe-inlining", ".json");
            try {
                Files.writeString(file, DIRECTIVE, StandardCharsets.UTF_8);
                String added = run(server, commands, "compilerDirectivesAdd", file.toString());
                return added.startsWith("1 ") ? "added" : "left out: " + added.strip();
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (Throwable e) {
            return "left out: " + e;
        }
    }

    private static String run(MBeanServer server, ObjectName commands, String op, String... args)
            throws Exception {
        Object out = server.invoke(commands, op, new Object[] {args}, ARGUMENTS);
        return out == null ? "" : out.toString();
    }
}
