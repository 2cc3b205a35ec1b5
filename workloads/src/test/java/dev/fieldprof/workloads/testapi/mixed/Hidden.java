package dev.fieldprof.workloads.testapi.mixed;

import dev.fieldprof.workloads.testapi.Calls;

/** Not public, so not part of the API. */
final class Hidden {

    public Hidden() {
        Calls.LOG.add("Hidden");
    }
}
