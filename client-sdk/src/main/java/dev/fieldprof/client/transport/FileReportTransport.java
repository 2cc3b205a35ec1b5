package dev.fieldprof.client.transport;

import dev.fieldprof.schemas.FrequencyReport;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * Appends reports to a local {@link ReportFile} for offline runs and evaluations. Writing happens
 * on the transport's background thread; a failed write (disk full, permissions) counts {@link
 * DropReason#WRITE_FAILED} and is retried with the next report.
 */
public final class FileReportTransport extends AsyncReportTransport {
    private final Path file;
    private FileChannel channel;

    /**
     * Opens (lazily, on the background thread) {@code file} for appending. Thread-safe.
     *
     * <pre>{@code
     * try (ReportTransport transport = new FileReportTransport(Path.of("reports.fpr"), 1024)) {
     *     transport.submit(report);
     * }
     * }</pre>
     *
     * @param queueCapacity reports waiting at most, in [1, 1000000]
     */
    public FileReportTransport(Path file, int queueCapacity) {
        super("file", queueCapacity, Duration.ofSeconds(1));
        if (file == null) {
            throw new IllegalArgumentException("file must not be null");
        }
        this.file = file;
        start();
    }

    public Path file() {
        return file;
    }

    @Override
    protected void deliver(FrequencyReport report) {
        byte[] frame;
        try {
            frame = ReportFile.frame(ReportFile.encode(report));
        } catch (RuntimeException e) {
            stats.dropped(DropReason.ENCODE_FAILED);
            return;
        }
        try {
            FileChannel out = channel();
            long before = out.size();
            ByteBuffer buffer = ByteBuffer.wrap(frame);
            try {
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
            } catch (IOException e) {
                out.truncate(before); // never leave a torn frame in the middle of the file
                throw e;
            }
            stats.sent();
        } catch (IOException | RuntimeException e) {
            closeChannel();
            stats.dropped(DropReason.WRITE_FAILED);
        }
    }

    private FileChannel channel() throws IOException {
        if (channel == null) {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            FileChannel opened =
                    FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            if (opened.size() == 0) {
                opened.write(ByteBuffer.wrap(ReportFile.header()));
            }
            opened.position(opened.size());
            channel = opened;
        }
        return channel;
    }

    private void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // already failing; the next report reopens
            }
            channel = null;
        }
    }

    @Override
    protected void idle() {
        if (channel != null) {
            try {
                channel.force(false);
            } catch (IOException ignored) {
                // durability is best effort between reports; close() forces again
            }
        }
    }

    @Override
    protected void shutdown() {
        idle();
        closeChannel();
    }
}
