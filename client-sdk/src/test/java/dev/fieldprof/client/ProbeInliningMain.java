package dev.fieldprof.client;

/** Child JVM of ProbeInliningTest: installs a handler, prints the outcome, runs three probes. */
public final class ProbeInliningMain {
    private ProbeInliningMain() {}

    public static void main(String[] args) {
        ProbeInliningTest.CountingHandler h = new ProbeInliningTest.CountingHandler();
        PathProbes.install(h);
        System.out.println(ProbeInlining.outcome());
        Object handle = PathProbes.enter(0);
        PathProbes.branch(handle, 0, 1, 0, 0);
        PathProbes.exit(handle, 0);
        System.out.println("events " + h.events);
    }
}
