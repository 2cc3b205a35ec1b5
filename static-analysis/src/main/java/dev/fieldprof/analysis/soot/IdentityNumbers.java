package dev.fieldprof.analysis.soot;

import java.util.Arrays;

/**
 * Numbers of objects by identity (a body's statements, its Locals), without boxing; reused from
 * body to body, where a new stamp empties it in constant time.
 */
final class IdentityNumbers {
    private Object[] keys = new Object[64];
    private int[] values = new int[64];
    private int[] stamps = new int[64];
    private int stamp = 1;
    private int size;

    /** Empties the table, sized for about {@code expected} keys. */
    void reset(int expected) {
        size = 0;
        if (2 * expected > keys.length) {
            allocate(Integer.highestOneBit(4 * expected - 1));
        } else if (++stamp == Integer.MAX_VALUE) {
            Arrays.fill(stamps, 0);
            stamp = 1;
        }
    }

    /** The number of {@code key}, or -1. */
    int get(Object key) {
        int mask = keys.length - 1;
        for (int i = slot(key, mask); stamps[i] == stamp; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return values[i];
            }
        }
        return -1;
    }

    /** Numbers {@code key}, which must not be numbered yet. */
    void put(Object key, int value) {
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (stamps[i] == stamp) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        stamps[i] = stamp;
        size++;
    }

    private void grow() {
        Object[] oldKeys = keys;
        int[] oldValues = values;
        int[] oldStamps = stamps;
        int oldStamp = stamp;
        allocate(2 * keys.length);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldStamps[i] == oldStamp) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    private void allocate(int capacity) {
        keys = new Object[capacity];
        values = new int[capacity];
        stamps = new int[capacity];
        stamp = 1;
    }

    private static int slot(Object key, int mask) {
        int h = System.identityHashCode(key) * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }
}
