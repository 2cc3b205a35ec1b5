package dev.fieldprof.client;

/**
 * A child process for {@link ProgramRunTest}: an "instrumented program" that only calls {@link
 * Probes#enter}; the runtime configures itself from {@code fieldprof.*} system properties and ends
 * the run's epoch at exit.
 */
public final class ProgramRunMain {
    private ProgramRunMain() {}

    public static void main(String[] args) {
        int events = Integer.parseInt(args[0]);
        for (int i = 0; i < events; i++) {
            Probes.enter(i % 7);
        }
    }
}
