package dev.fieldprof.client.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Crash-safe file replacement: write a temporary file in the same directory, fsync it, rename it
 * over the target atomically, fsync the directory. After a kill -9 or a power cut the target holds
 * either the old or the new content, never a mix.
 *
 * <p>What it writes is the device's own (epoch counts, ledger, spooled reports): on POSIX file
 * systems files are created readable and writable by the device's user only ({@code rw-------}),
 * and directories it creates {@code rwx------}.
 */
public final class AtomicFiles {
    private static final boolean POSIX =
            FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final FileAttribute<?>[] PRIVATE_FILE =
            POSIX
                    ? new FileAttribute<?>[] {
                        PosixFilePermissions.asFileAttribute(
                                PosixFilePermissions.fromString("rw-------"))
                    }
                    : new FileAttribute<?>[0];
    private static final FileAttribute<?>[] PRIVATE_DIRECTORY =
            POSIX
                    ? new FileAttribute<?>[] {
                        PosixFilePermissions.asFileAttribute(
                                PosixFilePermissions.fromString("rwx------"))
                    }
                    : new FileAttribute<?>[0];

    private AtomicFiles() {}

    /**
     * Creates {@code dir} and its missing parents, each new one readable by the device's user only
     * (existing directories keep their permissions).
     */
    public static void createPrivateDirectories(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            return;
        }
        Path parent = absolute.getParent();
        if (parent != null) {
            createPrivateDirectories(parent);
        }
        try {
            Files.createDirectory(absolute, PRIVATE_DIRECTORY);
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(absolute)) {
                throw e;
            }
        }
    }

    /** Atomically replaces {@code target} with {@code content}, creating parent directories. */
    public static void write(Path target, byte[] content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        createPrivateDirectories(dir);
        Path temp =
                dir.resolve(
                        "."
                                + target.getFileName()
                                + ".tmp-"
                                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        try {
            try (FileChannel channel =
                    FileChannel.open(
                            temp,
                            Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                            PRIVATE_FILE)) {
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

    /** Opens {@code file} for writing, created readable by the device's user only if missing. */
    static FileChannel openPrivate(Path file) throws IOException {
        return FileChannel.open(
                file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), PRIVATE_FILE);
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
