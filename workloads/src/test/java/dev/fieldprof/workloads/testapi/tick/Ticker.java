package dev.fieldprof.workloads.testapi.tick;

import dev.fieldprof.workloads.testapi.Calls;

/** One public method and nothing to construct. */
public final class Ticker {

    private Ticker() {}

    public static void tick() {
        Calls.LOG.add("tick");
    }

    static void notPublic() {
        Calls.LOG.add("notPublic");
    }
}
