package dev.fieldprof.workloads.testapi.shelf;

import dev.fieldprof.workloads.testapi.Calls;

/** A small API whose calls log their arguments, so that a run can be compared call by call. */
public final class Shelf {

    private final String label;
    private int items;

    public Shelf(String label) {
        this.label = label;
        Calls.LOG.add("new Shelf(" + label + ")");
    }

    public Shelf put(int count) {
        items += count;
        Calls.LOG.add(label + ".put(" + count + ")");
        return this;
    }

    public Shelf merge(Shelf other) {
        Calls.LOG.add(label + ".merge(" + (other == null ? "null" : other.label) + ")");
        return new Shelf(label + "+" + (other == null ? "" : other.label));
    }

    public static Shelf of(double size) {
        Calls.LOG.add("of(" + size + ")");
        return new Shelf("#" + size);
    }

    public int items() {
        Calls.LOG.add(label + ".items() = " + items);
        return items;
    }
}
