package dev.fieldprof.client.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Crash-safe file replacement: write a temporary file in the same directory, fsync it, rename it
 * over the target atomically, fsync the directory. After a kill -9 or a power cut the target holds
 * either the old or the new content, never a mix.
 */
public final class AtomicFiles {
    private AtomicFiles() {}

    /** Atomically replaces {@code target} with {@code content}, creating parent directories. */
    public static void write(Path target, byte[] content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp =
                dir.resolve(
                        "."
                                + target.getFileName()
                                + ".tmp-"
                                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        try {
            try (FileChannel channel =
                    FileChannel.open(
                            temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            try {
                Files.move(
                        temp,
                        target,
                        StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
        syncDirectory(dir);
    }

    /** Makes a rename or deletion in {@code dir} durable where the platform allows it. */
    public static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | RuntimeException e) {
            // Some platforms cannot open directories; the rename is then as durable as they allow.
        }
    }
}
