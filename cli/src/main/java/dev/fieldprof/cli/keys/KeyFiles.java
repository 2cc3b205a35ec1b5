package dev.fieldprof.cli.keys;

import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.sealing.AnalystKeys;
import dev.fieldprof.sealing.SealingException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * The two files of the analyst's key pair: {@value #PRIVATE} (readable by its owner only) and
 * {@value #PUBLIC} beside it. Writes go through a temporary file in the same directory, moved into
 * place, so that a reader never sees half a keyset and the private one is never readable by others,
 * not even for a moment.
 */
final class KeyFiles {
    static final String PRIVATE = "analyst-private.json";
    static final String PUBLIC = "analyst-public.json";

    /** A keyset of a few keys is a few KiB; anything much larger is not one. */
    static final long MAX_KEYSET_BYTES = 1024 * 1024;

    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private KeyFiles() {}

    /** The text of a keyset file, or a failure naming the file and the problem. */
    static String read(Path file) {
        try {
            if (!Files.isRegularFile(file)) {
                throw new CliFailure("no keyset file at " + file);
            }
            long size = Files.size(file);
            if (size > MAX_KEYSET_BYTES) {
                throw new CliFailure(
                        file
                                + " is not a keyset: "
                                + size
                                + " bytes (at most "
                                + MAX_KEYSET_BYTES
                                + ")");
            }
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            if (e instanceof CliFailure failure) {
                throw failure;
            }
            throw new CliFailure("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** The key pair in a private keyset file, or a failure naming the file and the problem. */
    static AnalystKeys readPrivate(Path file) {
        String json = read(file);
        try {
            return AnalystKeys.fromPrivateKeysetJson(json);
        } catch (SealingException e) {
            throw new CliFailure(file + ": " + firstLine(e.getMessage()), e);
        }
    }

    /**
     * Writes both files of {@code keys} into {@code dir}: the private keyset owner-only, the public
     * keyset readable as usual.
     *
     * @param replace whether existing files are replaced (rotation) or refused (generation)
     */
    static void write(AnalystKeys keys, Path dir, boolean replace) {
        try {
            Files.createDirectories(dir);
            if (!replace) {
                for (String name : new String[] {PRIVATE, PUBLIC}) {
                    if (Files.exists(dir.resolve(name))) {
                        throw new CliFailure(
                                dir.resolve(name)
                                        + " exists: rotate it with 'fieldprof keys rotate"
                                        + " --private "
                                        + dir.resolve(PRIVATE)
                                        + "'");
                    }
                }
            }
            writeAtomically(dir.resolve(PRIVATE), keys.privateKeysetJson(), true);
            writeAtomically(dir.resolve(PUBLIC), keys.publicKeysetJson(), false);
        } catch (SealingException e) {
            throw new CliFailure(firstLine(e.getMessage()), e);
        } catch (IOException e) {
            throw new CliFailure("cannot write the keys in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void writeAtomically(Path file, String text, boolean ownerOnly)
            throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path temporary;
        if (ownerOnly && supportsPosix(dir)) {
            temporary =
                    Files.createTempFile(
                            dir,
                            ".keys-",
                            ".tmp",
                            PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } else {
            temporary = Files.createTempFile(dir, ".keys-", ".tmp");
        }
        try {
            Files.writeString(
                    temporary,
                    text + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.TRUNCATE_EXISTING);
            if (!ownerOnly && supportsPosix(dir)) {
                // A temporary file is owner-only; the public keyset is for everyone.
                Files.setPosixFilePermissions(
                        temporary, PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.move(
                        temporary,
                        file,
                        StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            } catch (FileAlreadyExistsException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static boolean supportsPosix(Path dir) {
        return dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    static String firstLine(String message) {
        if (message == null) {
            return "unknown problem";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
