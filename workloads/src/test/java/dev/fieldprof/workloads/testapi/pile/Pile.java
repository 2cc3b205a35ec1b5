package dev.fieldprof.workloads.testapi.pile;

import dev.fieldprof.workloads.testapi.Calls;
import java.util.ArrayList;
import java.util.Collections;

/** A collection each call on it makes 1024 elements bigger. */
public final class Pile extends ArrayList<Object> {

    public Pile() {
        add(0);
    }

    public void grow() {
        Calls.largestReceiver = Math.max(Calls.largestReceiver, size());
        addAll(Collections.nCopies(1024, 0));
    }
}
