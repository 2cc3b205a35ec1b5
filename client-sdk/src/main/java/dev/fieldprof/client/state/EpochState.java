package dev.fieldprof.client.state;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * The counts of an epoch that has not reached k events yet, as kept on the device across restarts
 * (docs/architecture.md, "The flow": an epoch with fewer than k events waits on disk and is never
 * sent on its own). Binary, versioned (magic {@code FPEP}, version 1), sparse, CRC-checked; written
 * atomically. The counts identify the app version, privacy configuration and |V| they belong to:
 * state for another configuration is never mixed in.
 */
public final class EpochState {
    private static final int MAGIC = 0x46504550; // "FPEP"
    private static final int VERSION = 1;

    private final String appVersion;
    private final String configId;
    private final int k;
    private final long epochStartMillis;
    private final long[] counts;

    /**
     * Creates a state snapshot; the array is copied. Immutable and thread-safe.
     *
     * @param counts pending counts per method id, each >= 0
     */
    public EpochState(
            String appVersion, String configId, int k, long epochStartMillis, long[] counts) {
        for (long c : counts) {
            if (c < 0) {
                throw new IllegalArgumentException("counts must be >= 0, got " + c);
            }
        }
        this.appVersion = appVersion;
        this.configId = configId;
        this.k = k;
        this.epochStartMillis = epochStartMillis;
        this.counts = counts.clone();
    }

    public String appVersion() {
        return appVersion;
    }

    public String configId() {
        return configId;
    }

    public int k() {
        return k;
    }

    public long epochStartMillis() {
        return epochStartMillis;
    }

    public int methodCount() {
        return counts.length;
    }

    public long[] counts() {
        return counts.clone();
    }

    public long total() {
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        return total;
    }

    /** Whether this state was made with the same configuration and may be continued. */
    public boolean matches(String appVersion, String configId, int k, int methodCount) {
        return this.appVersion.equals(appVersion)
                && this.configId.equals(configId)
                && this.k == k
                && counts.length == methodCount;
    }

    byte[] encode() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeUTF(appVersion);
        out.writeUTF(configId);
        out.writeInt(k);
        out.writeLong(epochStartMillis);
        out.writeInt(counts.length);
        int nonZero = 0;
        for (long c : counts) {
            if (c != 0) {
                nonZero++;
            }
        }
        out.writeInt(nonZero);
        for (int v = 0; v < counts.length; v++) {
            if (counts[v] != 0) {
                out.writeInt(v);
                out.writeLong(counts[v]);
            }
        }
        out.flush();
        CRC32 crc = new CRC32();
        crc.update(bytes.toByteArray());
        out.writeLong(crc.getValue());
        out.flush();
        return bytes.toByteArray();
    }

    static EpochState decode(byte[] data) throws IOException {
        if (data.length < 16) {
            throw new IOException("epoch state too short: " + data.length + " bytes");
        }
        CRC32 crc = new CRC32();
        crc.update(data, 0, data.length - 8);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
        if (in.readInt() != MAGIC) {
            throw new IOException("not an epoch state file (bad magic)");
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw new IOException("unsupported epoch state version " + version);
        }
        String appVersion = in.readUTF();
        String configId = in.readUTF();
        int k = in.readInt();
        long start = in.readLong();
        int methodCount = in.readInt();
        int nonZero = in.readInt();
        if (methodCount < 0 || nonZero < 0 || nonZero > methodCount) {
            throw new IOException("corrupt epoch state: " + nonZero + " of " + methodCount);
        }
        long[] counts = new long[methodCount];
        for (int i = 0; i < nonZero; i++) {
            int v = in.readInt();
            long c = in.readLong();
            if (v < 0 || v >= methodCount || c < 0) {
                throw new IOException("corrupt epoch state entry " + v + "=" + c);
            }
            counts[v] = c;
        }
        long stored = in.readLong();
        if (stored != crc.getValue()) {
            throw new IOException("epoch state checksum mismatch");
        }
        return new EpochState(appVersion, configId, k, start, counts);
    }

    /** Atomically writes this state to {@code file}. */
    public void writeTo(Path file) throws IOException {
        AtomicFiles.write(file, encode());
    }

    /** Reads a state file; null if there is none. */
    public static EpochState readFrom(Path file) throws IOException {
        try {
            return decode(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "EpochState("
                + appVersion
                + ", "
                + configId
                + ", k="
                + k
                + ", methods="
                + counts.length
                + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EpochState s
                && s.appVersion.equals(appVersion)
                && s.configId.equals(configId)
                && s.k == k
                && s.epochStartMillis == epochStartMillis
                && Arrays.equals(s.counts, counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts) * 31 + appVersion.hashCode();
    }
}
