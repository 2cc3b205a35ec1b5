package dev.fieldprof.cli.support;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * The CLI's log file (Flink's and Kafka's warnings, see log4j2.xml): {@code fieldprof-USER.log} in
 * {@code $TMPDIR} (else {@code java.io.tmpdir}), readable and writable by its owner only, prepared
 * before log4j opens it. The temporary directory is shared with other users: a file there that is a
 * symbolic link, or that someone else owns, is never written to; the log then goes to a fresh file
 * of a random name, created exclusively. Once created, the file cannot be swapped for a link by
 * another user (the directory's sticky bit), so log4j may open it by name. {@code
 * -Dfieldprof.log.file=PATH} names another file, which is used as given.
 */
public final class LogFile {
    /** The system property log4j2.xml reads the file name from. */
    public static final String PROPERTY = "fieldprof.log.file";

    private static final Set<PosixFilePermission> OWNER_ONLY =
            PosixFilePermissions.fromString("rw-------");

    private final Path path;
    private final String warning;

    private LogFile(Path path, String warning) {
        this.path = path;
        this.warning = warning;
    }

    /**
     * Prepares the log file for this process and sets {@link #PROPERTY} to it, unless it is set
     * already.
     *
     * @return the file, or null when no file could be prepared (log4j then uses its default)
     */
    public static Path install(java.io.PrintStream err) {
        String given = System.getProperty(PROPERTY);
        if (given != null) {
            return Path.of(given);
        }
        String tmp = System.getenv("TMPDIR");
        Path dir =
                tmp != null && !tmp.isBlank() && Files.isDirectory(Path.of(tmp))
                        ? Path.of(tmp)
                        : Path.of(System.getProperty("java.io.tmpdir"));
        try {
            LogFile file = prepare(dir, System.getProperty("user.name", "user"));
            if (file.warning != null) {
                err.println("fieldprof: " + file.warning);
            }
            System.setProperty(PROPERTY, file.path.toString());
            return file.path;
        } catch (IOException e) {
            err.println("fieldprof: cannot create a log file in " + dir + ": " + e.getMessage());
            return null;
        }
    }

    /** The per-user log file in {@code dir}, created owner-only if missing. */
    static LogFile prepare(Path dir, String user) throws IOException {
        String name = "fieldprof-" + user.replaceAll("[^A-Za-z0-9._-]", "_");
        Path path = dir.resolve(name + ".log");
        try {
            Files.createFile(path, ownerOnly());
            return new LogFile(path, null);
        } catch (FileAlreadyExistsException e) {
            // Exists (or a link exists, dangling or not: creation never follows it).
        }
        String problem = problem(path);
        if (problem == null) {
            return new LogFile(path, null);
        }
        Path fresh = Files.createTempFile(dir, name + "-", ".log", ownerOnly());
        return new LogFile(fresh, path + " " + problem + "; logging to " + fresh);
    }

    /** Why an existing file may not be written to, or null when it is ours and private. */
    private static String problem(Path path) throws IOException {
        if (Files.isSymbolicLink(path)) {
            return "is a symbolic link, not followed";
        }
        if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
            return "is not a regular file";
        }
        if (isPosix(path)) {
            UserPrincipal me =
                    path.getFileSystem()
                            .getUserPrincipalLookupService()
                            .lookupPrincipalByName(System.getProperty("user.name"));
            if (!Files.getOwner(path, LinkOption.NOFOLLOW_LINKS).equals(me)) {
                return "belongs to another user";
            }
            Files.setPosixFilePermissions(path, OWNER_ONLY);
        }
        return null;
    }

    private static boolean isPosix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static FileAttribute<?>[] ownerOnly() {
        return java.nio.file.FileSystems.getDefault()
                        .supportedFileAttributeViews()
                        .contains("posix")
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                : new FileAttribute<?>[0];
    }

    /** The file. */
    Path path() {
        return path;
    }

    /** What was wrong with the usual file, or null. */
    String warning() {
        return warning;
    }
}
