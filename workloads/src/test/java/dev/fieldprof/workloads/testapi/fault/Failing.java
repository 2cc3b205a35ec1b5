package dev.fieldprof.workloads.testapi.fault;

/** Fails as libraries do on bad input. */
public final class Failing {

    private Failing() {}

    public static void fail() {
        throw new IllegalArgumentException("bad input");
    }
}
