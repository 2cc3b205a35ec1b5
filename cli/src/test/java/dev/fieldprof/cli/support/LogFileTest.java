package dev.fieldprof.cli.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogFileTest {
    @TempDir Path dir;

    private static String permissions(Path file) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }

    @Test
    void createsAPerUserFileForItsOwnerOnly() throws Exception {
        LogFile file = LogFile.prepare(dir, "alice");
        assertThat(file.path()).isEqualTo(dir.resolve("fieldprof-alice.log"));
        assertThat(file.warning()).isNull();
        assertThat(permissions(file.path())).isEqualTo("rw-------");
        // A second command finds it and keeps it; one left readable by others is closed.
        Files.setPosixFilePermissions(file.path(), PosixFilePermissions.fromString("rw-r--r--"));
        LogFile again = LogFile.prepare(dir, "alice");
        assertThat(again.path()).isEqualTo(file.path());
        assertThat(permissions(again.path())).isEqualTo("rw-------");
    }

    @Test
    void neverFollowsALinkPlantedAtItsName() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim"), "secret\n");
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-r--r--"));
        Path link = Files.createSymbolicLink(dir.resolve("fieldprof-bob.log"), victim);
        Path dangling = dir.resolve("not-yet");
        Files.createSymbolicLink(dir.resolve("fieldprof-carol.log"), dangling);

        LogFile bob = LogFile.prepare(dir, "bob");
        LogFile carol = LogFile.prepare(dir, "carol");

        assertThat(bob.path()).isNotEqualTo(link);
        assertThat(bob.path().getFileName().toString())
                .startsWith("fieldprof-bob-")
                .endsWith(".log");
        assertThat(Files.isSymbolicLink(bob.path())).isFalse();
        assertThat(permissions(bob.path())).isEqualTo("rw-------");
        assertThat(bob.warning())
                .isEqualTo(link + " is a symbolic link, not followed; logging to " + bob.path());
        assertThat(Files.readString(victim)).isEqualTo("secret\n");
        assertThat(permissions(victim)).isEqualTo("rw-r--r--");
        assertThat(carol.path().getFileName().toString()).startsWith("fieldprof-carol-");
        assertThat(Files.exists(dangling)).isFalse();
    }

    @Test
    void installSetsTheFileLog4jOpens() throws Exception {
        String savedTmp = System.getProperty("java.io.tmpdir");
        String savedFile = System.getProperty(LogFile.PROPERTY);
        System.clearProperty(LogFile.PROPERTY);
        System.setProperty("java.io.tmpdir", dir.toString());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            Path file = LogFile.install(new PrintStream(err, true, StandardCharsets.UTF_8));
            if (System.getenv("TMPDIR") == null) {
                assertThat(file)
                        .isEqualTo(
                                dir.resolve(
                                        "fieldprof-" + System.getProperty("user.name") + ".log"));
            }
            assertThat(System.getProperty(LogFile.PROPERTY)).isEqualTo(file.toString());
            assertThat(permissions(file)).isEqualTo("rw-------");
            assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        } finally {
            System.setProperty("java.io.tmpdir", savedTmp);
            if (savedFile == null) {
                System.clearProperty(LogFile.PROPERTY);
            } else {
                System.setProperty(LogFile.PROPERTY, savedFile);
            }
        }
    }
}
