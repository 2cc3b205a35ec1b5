package dev.fieldprof.workloads.testapi.mixed;

import dev.fieldprof.workloads.testapi.Calls;

/** Two methods a driver may call among ones it must not. */
public final class Mixed {

    public Mixed() {
        Calls.LOG.add("new");
    }

    public void append(String text) {
        Calls.LOG.add("append");
    }

    public void sleepUntil(long time) {
        Calls.LOG.add("sleepUntil");
    }

    public void readFrom(Object source) {
        Calls.LOG.add("readFrom");
    }

    public static void setDefaultLocale(String tag) {
        Calls.LOG.add("setDefaultLocale");
    }

    public static void main(String[] args) {
        Calls.LOG.add("main");
    }

    void notPublic() {
        Calls.LOG.add("notPublic");
    }
}
