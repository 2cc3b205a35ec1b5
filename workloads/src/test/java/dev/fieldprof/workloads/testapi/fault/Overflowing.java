package dev.fieldprof.workloads.testapi.fault;

/** Fails as the VM does. */
public final class Overflowing {

    private Overflowing() {}

    public static void overflow() {
        throw new StackOverflowError();
    }
}
