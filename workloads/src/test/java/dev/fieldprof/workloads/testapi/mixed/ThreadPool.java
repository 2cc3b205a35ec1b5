package dev.fieldprof.workloads.testapi.mixed;

import dev.fieldprof.workloads.testapi.Calls;

/** Left out by its name: a class about threads may start or block on them. */
public final class ThreadPool {

    public ThreadPool() {
        Calls.LOG.add("ThreadPool");
    }
}
