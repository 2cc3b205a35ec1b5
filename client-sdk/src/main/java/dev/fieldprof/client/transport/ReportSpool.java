package dev.fieldprof.client.transport;

import dev.fieldprof.client.state.AtomicFiles;
import dev.fieldprof.schemas.RecordCodec;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * A bounded on-disk queue of records waiting for an unreachable broker: one file per record ({@code
 * <sequence>.rep}, the record's {@link RecordCodec} bytes, written atomically), oldest first. Past
 * the byte cap the oldest records are deleted and counted as {@link DropReason#SPOOL_FULL}.
 * Survives restarts. Thread-safe (the publisher thread and, at exit, the exiting thread).
 *
 * <pre>{@code
 * ReportSpool<FrequencyReport> spool = new ReportSpool<>(Path.of("spool"), 16 << 20, stats,
 *         RecordCodec.of(FrequencyReport.class));
 * }</pre>
 *
 * @param <R> the records spooled (frequency reports, path reports); one kind a directory
 */
public final class ReportSpool<R extends SpecificRecordBase> {
    private static final String SUFFIX = ".rep";

    private final Path dir;
    private final long maxBytes;
    private final TransportStats stats;
    private final RecordCodec<R> codec;
    private final TreeMap<Long, Long> sizes = new TreeMap<>();
    private long bytes;
    private long nextSequence;

    /**
     * Opens the spool in {@code dir}, picking up reports left by an earlier process.
     *
     * @param maxBytes cap on the spooled bytes, >= 1
     * @param codec how a record is written and read back
     */
    public ReportSpool(Path dir, long maxBytes, TransportStats stats, RecordCodec<R> codec) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be >= 1, got " + maxBytes);
        }
        this.dir = dir;
        this.maxBytes = maxBytes;
        this.stats = stats;
        this.codec = codec;
        scan();
    }

    private void scan() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                try {
                    long sequence =
                            Long.parseLong(name.substring(0, name.length() - SUFFIX.length()));
                    long size = Files.size(file);
                    sizes.put(sequence, size);
                    bytes += size;
                    nextSequence = Math.max(nextSequence, sequence + 1);
                } catch (NumberFormatException | IOException ignored) {
                    // not ours, or vanished
                }
            }
        } catch (IOException ignored) {
            // an unreadable spool is empty; adds will count their failures
        }
        stats.spooledNow(sizes.size());
    }

    private Path fileOf(long sequence) {
        return dir.resolve(String.format("%019d%s", sequence, SUFFIX));
    }

    /**
     * Spools a record, evicting the oldest past the cap; counts every outcome.
     *
     * @return the record's position (for {@link #remove}), or -1 if it was not spooled
     */
    public synchronized long add(R report) {
        byte[] encoded;
        try {
            encoded = codec.encode(report);
        } catch (RuntimeException e) {
            stats.dropped(DropReason.ENCODE_FAILED);
            return -1;
        }
        if (encoded.length > maxBytes) {
            stats.dropped(DropReason.SPOOL_FULL);
            return -1;
        }
        while (bytes + encoded.length > maxBytes && !sizes.isEmpty()) {
            removeOldest();
            stats.dropped(DropReason.SPOOL_FULL);
        }
        long sequence = nextSequence++;
        try {
            AtomicFiles.write(fileOf(sequence), encoded);
            sizes.put(sequence, (long) encoded.length);
            bytes += encoded.length;
            stats.spooled();
        } catch (IOException | RuntimeException e) {
            stats.dropped(DropReason.WRITE_FAILED);
            sequence = -1;
        }
        stats.spooledNow(sizes.size());
        return sequence;
    }

    /** The oldest spooled record, if any (unreadable files are discarded and counted). */
    public synchronized Optional<Spooled<R>> oldest() {
        while (!sizes.isEmpty()) {
            long sequence = sizes.firstKey();
            try {
                byte[] bytes = Files.readAllBytes(fileOf(sequence));
                return Optional.of(new Spooled<>(sequence, codec.decode(bytes)));
            } catch (IOException | RuntimeException e) {
                removeOldest();
                stats.dropped(DropReason.WRITE_FAILED);
            }
        }
        return Optional.empty();
    }

    /** A spooled record and its position. */
    public record Spooled<R>(long sequence, R report) {}

    /** Deletes a report once it was sent. */
    public synchronized void remove(long sequence) {
        Long size = sizes.remove(sequence);
        if (size != null) {
            bytes -= size;
            try {
                Files.deleteIfExists(fileOf(sequence));
            } catch (IOException ignored) {
                // forgotten in memory; a restart may resend it, and report ids make that harmless
            }
        }
        stats.spooledNow(sizes.size());
    }

    private void removeOldest() {
        remove(sizes.firstKey());
    }

    public synchronized int size() {
        return sizes.size();
    }

    public synchronized long bytes() {
        return bytes;
    }

    public synchronized boolean isEmpty() {
        return sizes.isEmpty();
    }
}
