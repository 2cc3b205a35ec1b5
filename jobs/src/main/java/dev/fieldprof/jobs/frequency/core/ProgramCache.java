package dev.fieldprof.jobs.frequency.core;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Decoded program models of one operator instance, keyed as the broadcast state keys their bytes
 * (compressed or not, {@link StoredModels}) and refreshed when the bytes change; the broadcast
 * state keeps the bytes, so the cache is rebuilt lazily after a restore.
 */
public final class ProgramCache {
    private record Entry(byte[] bytes, ProgramIndex index) {}

    private final Map<String, Entry> entries = new HashMap<>();

    /** The index of {@code bytes}, decoding them only when they differ from the cached ones. */
    public ProgramIndex get(String key, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        Entry entry = entries.get(key);
        if (entry != null && (entry.bytes == bytes || Arrays.equals(entry.bytes, bytes))) {
            return entry.index;
        }
        ProgramIndex index = ProgramIndex.decode(StoredModels.open(bytes));
        entries.put(key, new Entry(bytes, index));
        return index;
    }
}
