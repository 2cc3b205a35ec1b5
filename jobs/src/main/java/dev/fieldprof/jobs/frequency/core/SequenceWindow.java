package dev.fieldprof.jobs.frequency.core;

/**
 * Which numbered reports of one device and app version were counted: the highest sequence number
 * seen and a bitmap of the {@link #SIZE} numbers below it (the anti-replay window of IPsec, RFC
 * 4303 §3.4.3). Sixteen bytes per device however many reports it sends and however long an outage
 * lasts: a re-sent report is recognised whenever it arrives. A device sends its reports in order
 * (one partition per device, an in-order spool), so a report more than {@link #SIZE} behind the
 * latest is a re-send from long ago that the window can no longer vouch for. Flink-free; the state
 * is the two longs of {@link #toState()}.
 */
public final class SequenceWindow {
    /** How many numbers below the latest are remembered. */
    public static final int SIZE = 64;

    /** What to do with a numbered report. */
    public enum Verdict {
        /** Not seen before: count it. */
        NEW,
        /** Seen and counted before: drop it. */
        DUPLICATE,
        /** Too far behind the latest to tell: dead-letter it. */
        TOO_OLD
    }

    private long latest;
    private long seen; // bit i: latest - i was counted

    private SequenceWindow(long latest, long seen) {
        this.latest = latest;
        this.seen = seen;
    }

    /** The window of a device with no report yet, or the one saved in {@code state}. */
    public static SequenceWindow of(long[] state) {
        return state == null ? new SequenceWindow(0, 0) : new SequenceWindow(state[0], state[1]);
    }

    /**
     * @param sequence a report's number, at least 1
     */
    public Verdict offer(long sequence) {
        if (sequence < 1) {
            throw new IllegalArgumentException("sequence must be >= 1, got " + sequence);
        }
        if (sequence > latest) {
            long shift = sequence - latest;
            seen = shift >= SIZE ? 1 : (seen << shift) | 1;
            latest = sequence;
            return Verdict.NEW;
        }
        long behind = latest - sequence;
        if (behind >= SIZE) {
            return Verdict.TOO_OLD;
        }
        long bit = 1L << behind;
        if ((seen & bit) != 0) {
            return Verdict.DUPLICATE;
        }
        seen |= bit;
        return Verdict.NEW;
    }

    public long latest() {
        return latest;
    }

    /** The state to save: latest and the bitmap. */
    public long[] toState() {
        return new long[] {latest, seen};
    }
}
