package dev.fieldprof.jobs.frequency.records;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The shuffled batches whose reports a sum holds: each batch's id and declared size, once however
 * many of its reports or parts the sum took in. Sums of the same batches merge without counting a
 * batch twice, so a window's shards, its revisions and the cumulative estimate all report each
 * batch once. Empty for a sum of local-only reports. A Flink POJO (arrays, no collections); not
 * thread-safe.
 */
public class ShuffledBatches implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The batch ids, in increasing order. */
    public String[] ids = new String[0];

    /** {@code sizes[i]}: the size batch {@code ids[i]} declares. */
    public int[] sizes = new int[0];

    public ShuffledBatches() {}

    /** Adds a batch, unless it is already here. */
    public ShuffledBatches add(String id, int size) {
        int at = Arrays.binarySearch(ids, id);
        if (at >= 0) {
            return this;
        }
        int insert = -at - 1;
        String[] newIds = new String[ids.length + 1];
        int[] newSizes = new int[sizes.length + 1];
        System.arraycopy(ids, 0, newIds, 0, insert);
        System.arraycopy(sizes, 0, newSizes, 0, insert);
        newIds[insert] = id;
        newSizes[insert] = size;
        System.arraycopy(ids, insert, newIds, insert + 1, ids.length - insert);
        System.arraycopy(sizes, insert, newSizes, insert + 1, sizes.length - insert);
        ids = newIds;
        sizes = newSizes;
        return this;
    }

    /** Adds every batch of {@code other} and returns this. */
    public ShuffledBatches merge(ShuffledBatches other) {
        if (other != null) {
            for (int i = 0; i < other.ids.length; i++) {
                add(other.ids[i], other.sizes[i]);
            }
        }
        return this;
    }

    /** A copy that later additions to this leave unchanged. */
    public ShuffledBatches copy() {
        return new ShuffledBatches().merge(this);
    }

    public boolean isEmpty() {
        return ids.length == 0;
    }

    /** The batches' sizes in increasing order. */
    public int[] sortedSizes() {
        int[] sorted = sizes.clone();
        Arrays.sort(sorted);
        return sorted;
    }
}
