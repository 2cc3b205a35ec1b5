package dev.fieldprof.cli.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.sealing.AnalystKeys;
import dev.fieldprof.sealing.ReportSealer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fieldprof keys}: generate writes an owner-only private keyset and a public one that seals
 * what the private one opens; rotate adds a primary key and keeps the old one; show names the kind
 * and the key ids; a bad file is one line naming the problem.
 */
class KeysCommandTest {
    @TempDir Path dir;

    private static final String NL = System.lineSeparator();

    @Test
    void generateRotateAndShow() throws Exception {
        Path keys = dir.resolve("keys");
        Path privateFile = keys.resolve("analyst-private.json");
        Path publicFile = keys.resolve("analyst-public.json");

        CliCapture generate = new CliCapture();
        assertThat(generate.run("keys", "generate", "--out", keys.toString())).isZero();
        AnalystKeys generated = AnalystKeys.fromPrivateKeysetJson(Files.readString(privateFile));
        String first = generated.primaryKeyId();
        assertThat(generate.out().lines())
                .containsExactly(
                        "generated key " + first,
                        "private keyset " + privateFile + " (owner only)",
                        "public keyset " + publicFile);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(privateFile)))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(publicFile)))
                .isEqualTo("rw-r--r--");
        ReportSealer devices = AnalystKeys.sealerFromPublicKeysetJson(Files.readString(publicFile));
        assertThat(devices.keyId()).isEqualTo(first);
        byte[] sealedBefore = devices.seal(new byte[] {7, 8, 9}, "demo:1.0", "default");
        assertThat(generated.opener().open(sealedBefore, "demo:1.0", "default"))
                .containsExactly(7, 8, 9);

        CliCapture again = new CliCapture();
        assertThat(again.run("keys", "generate", "--out", keys.toString())).isEqualTo(1);
        assertThat(again.err())
                .isEqualTo(
                        "fieldprof: "
                                + privateFile
                                + " exists: rotate it with 'fieldprof keys rotate --private "
                                + privateFile
                                + "'"
                                + NL);

        CliCapture rotate = new CliCapture();
        assertThat(rotate.run("keys", "rotate", "--private", privateFile.toString())).isZero();
        AnalystKeys rotated = AnalystKeys.fromPrivateKeysetJson(Files.readString(privateFile));
        String second = rotated.primaryKeyId();
        assertThat(second).isNotEqualTo(first);
        assertThat(rotated.size()).isEqualTo(2);
        assertThat(rotate.out().lines())
                .containsExactly(
                        "rotated: new primary key " + second + ", 2 keys (was " + first + ")",
                        "public keyset " + publicFile.toAbsolutePath() + ": give it to devices");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(privateFile)))
                .isEqualTo("rw-------");
        assertThat(AnalystKeys.sealerFromPublicKeysetJson(Files.readString(publicFile)).keyId())
                .isEqualTo(second);
        assertThat(rotated.opener().open(sealedBefore, "demo:1.0", "default"))
                .as("sealed to the old key, opened after the rotation")
                .containsExactly(7, 8, 9);

        CliCapture showPrivate = new CliCapture();
        assertThat(showPrivate.run("keys", "show", privateFile.toString())).isZero();
        assertThat(showPrivate.out().lines())
                .containsExactly(
                        "private keyset " + privateFile + ": 2 keys",
                        "key " + first,
                        "key " + second + " primary");
        CliCapture showPublic = new CliCapture();
        assertThat(showPublic.run("keys", "show", publicFile.toString())).isZero();
        assertThat(showPublic.out().lines())
                .containsExactly(
                        "public keyset " + publicFile + ": 2 keys",
                        "key " + first,
                        "key " + second + " primary");
        assertThat(showPublic.out()).doesNotContain("privateKey");
    }

    @Test
    void aBadFileIsOneLineNamingTheProblem() throws Exception {
        Path garbage = Files.writeString(dir.resolve("garbage.json"), "{\"primaryKeyId\": 1}");
        CliCapture show = new CliCapture();
        assertThat(show.run("keys", "show", garbage.toString())).isEqualTo(1);
        assertThat(show.err())
                .isEqualTo(
                        "fieldprof: "
                                + garbage
                                + ": not an analyst keyset (Tink JSON, HPKE, private or public)"
                                + NL);

        Path missing = dir.resolve("missing.json");
        CliCapture absent = new CliCapture();
        assertThat(absent.run("keys", "show", missing.toString())).isEqualTo(1);
        assertThat(absent.err()).isEqualTo("fieldprof: no keyset file at " + missing + NL);

        Path notPrivate = dir.resolve("analyst-private.json");
        Files.writeString(notPrivate, AnalystKeys.generate().publicKeysetJson());
        CliCapture rotatePublic = new CliCapture();
        assertThat(rotatePublic.run("keys", "rotate", "--private", notPrivate.toString()))
                .isEqualTo(1);
        assertThat(rotatePublic.err())
                .startsWith("fieldprof: " + notPrivate + ": not an analyst private keyset")
                .endsWith(NL)
                .hasLineCount(1);

        CliCapture wrongName = new CliCapture();
        assertThat(wrongName.run("keys", "rotate", "--private", garbage.toString())).isEqualTo(1);
        assertThat(wrongName.err())
                .isEqualTo(
                        "fieldprof: "
                                + garbage
                                + ": rotate the file named analyst-private.json (its public keyset"
                                + " is written beside it)"
                                + NL);
    }
}
