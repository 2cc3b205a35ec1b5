package dev.fieldprof.agent;

import java.lang.instrument.Instrumentation;

/**
 * The device agent: {@code java -javaagent:fieldprof-device.jar=model=app.model[,paths]
 * -Dfieldprof.transport=kafka ... -jar app.jar} instruments the classes of the program model as
 * they load, with the same probes {@code fieldprof instrument} writes into a jar, and the device
 * runtime in the same jar counts and reports as it does for an instrumented jar (its settings are
 * the {@code fieldprof.*} system properties). Other classes load untouched.
 *
 * <p>The agent never stops the host. When it cannot start (bad options, a model file it cannot
 * read, invalid {@code fieldprof.*} settings) it prints exactly one line on stderr and the program
 * runs uninstrumented: these are mistakes in the command line that would otherwise go unnoticed,
 * since without the agent no runtime starts that could count them. After start it prints nothing; a
 * class it fails to instrument loads as it was and is counted (JMX {@code
 * dev.fieldprof:type=DeviceRuntime}, {@code ClassesLeftUninstrumentedAtLoad}).
 */
public final class DeviceAgent {
    static final String PREFIX = "fieldprof agent: ";
    static final String NOT_STARTED = "; the program runs without fieldprof";

    private DeviceAgent() {}

    /** The {@code -javaagent} entry. Never throws. */
    public static void premain(String arguments, Instrumentation instrumentation) {
        String problem = start(arguments, instrumentation);
        if (problem != null) {
            System.err.println(PREFIX + oneLine(problem) + NOT_STARTED);
        }
    }

    /**
     * The problem as one inert line: a setting's value or a path quoted in it may hold line breaks
     * or escape sequences, and the promise is one line that a terminal shows as written.
     */
    static String oneLine(String problem) {
        return problem.replaceAll(
                "[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]+", " ");
    }

    /** Installs the transformer; returns why it could not, or null. */
    static String start(String arguments, Instrumentation instrumentation) {
        try {
            ModelClassTransformer transformer =
                    AgentSetup.transformer(AgentOptions.parse(arguments));
            instrumentation.addTransformer(transformer, false);
            return null;
        } catch (AgentSetup.AgentStartException | IllegalArgumentException e) {
            return e.getMessage() == null
                    ? "cannot start (" + e.getClass().getSimpleName() + ")"
                    : e.getMessage();
        } catch (Throwable e) {
            return "cannot start (" + e.getClass().getSimpleName() + ")";
        }
    }
}
