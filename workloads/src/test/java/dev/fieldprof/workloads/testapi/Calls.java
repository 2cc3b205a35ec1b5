package dev.fieldprof.workloads.testapi;

import java.util.ArrayList;
import java.util.List;

/** What the driven test APIs saw; outside every driven package, so never driven itself. */
public final class Calls {

    /** One line per call, in call order. */
    public static final List<String> LOG = new ArrayList<>();

    /** The largest receiver a growing call was made on. */
    public static int largestReceiver;

    private Calls() {}

    public static void reset() {
        LOG.clear();
        largestReceiver = 0;
    }

    public static long count() {
        return LOG.size();
    }
}
