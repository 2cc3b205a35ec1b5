package dev.fieldprof.analysis.soot;

import java.util.function.BiFunction;
import soot.SootMethodRef;

/**
 * A map from (call kind, method reference) to a value, for the per-reference resolutions of a whole
 * program's call sites. Keys are equal as Soot's references are ({@code equals}: declaring class,
 * name, parameter and return types, static or not), but the hash reads only what is cheap: the
 * declaring class's identity, the name's cached hash, the arity and the kind. Soot's {@code
 * hashCode} walks the parameter list through an iterator at every lookup, and a {@code HashMap} of
 * a few hundred thousand references adds a node per entry; on the Kotlin compiler those lookups
 * were 14% of the facts' samples. Not thread-safe.
 */
final class MethodRefTable<V> {

    private SootMethodRef[] refs = new SootMethodRef[1024];
    private CallKind[] kinds = new CallKind[1024];
    private int[] hashes = new int[1024];
    private Object[] values = new Object[1024];
    private int size;

    /**
     * The value of ({@code kind}, {@code ref}), computed by {@code compute} on the first call with
     * an equal key. If {@code compute} throws, nothing is stored and the exception propagates.
     */
    @SuppressWarnings("unchecked")
    V computeIfAbsent(
            CallKind kind, SootMethodRef ref, BiFunction<CallKind, SootMethodRef, V> compute) {
        int hash = hash(kind, ref);
        int mask = refs.length - 1;
        int i = hash & mask;
        for (SootMethodRef key = refs[i]; key != null; key = refs[i]) {
            if (hashes[i] == hash && kinds[i] == kind && (key == ref || key.equals(ref))) {
                return (V) values[i];
            }
            i = (i + 1) & mask;
        }
        V value = compute.apply(kind, ref);
        if (2 * (size + 1) > refs.length) {
            grow();
            mask = refs.length - 1;
            i = hash & mask;
            while (refs[i] != null) {
                i = (i + 1) & mask;
            }
        }
        put(i, ref, kind, hash, value);
        return value;
    }

    private void put(int slot, SootMethodRef ref, CallKind kind, int hash, Object value) {
        refs[slot] = ref;
        kinds[slot] = kind;
        hashes[slot] = hash;
        values[slot] = value;
        size++;
    }

    private void grow() {
        SootMethodRef[] oldRefs = refs;
        CallKind[] oldKinds = kinds;
        int[] oldHashes = hashes;
        Object[] oldValues = values;
        int capacity = 2 * oldRefs.length;
        refs = new SootMethodRef[capacity];
        kinds = new CallKind[capacity];
        hashes = new int[capacity];
        values = new Object[capacity];
        size = 0;
        int mask = capacity - 1;
        for (int j = 0; j < oldRefs.length; j++) {
            if (oldRefs[j] != null) {
                int i = oldHashes[j] & mask;
                while (refs[i] != null) {
                    i = (i + 1) & mask;
                }
                put(i, oldRefs[j], oldKinds[j], oldHashes[j], oldValues[j]);
            }
        }
    }

    /**
     * Equal references have equal hashes: Soot's equality compares the declaring class by identity
     * ({@code SootClass} keeps {@code Object}'s equals), the name and the parameter lists.
     */
    private static int hash(CallKind kind, SootMethodRef ref) {
        int h = System.identityHashCode(ref.getDeclaringClass());
        h = 31 * h + ref.getName().hashCode();
        h = 31 * h + ref.getParameterTypes().size();
        h = 31 * h + kind.ordinal();
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
