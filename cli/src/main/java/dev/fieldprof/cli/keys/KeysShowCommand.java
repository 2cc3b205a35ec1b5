package dev.fieldprof.cli.keys;

import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.sealing.AnalystKeys;
import dev.fieldprof.sealing.SealingException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code fieldprof keys show FILE}: whether a keyset is private or public, and its key ids. */
@Command(
        name = "show",
        mixinStandardHelpOptions = true,
        description =
                "Say whether FILE is the analyst's private or public keyset and list its key ids,"
                        + " the primary one marked (devices seal to it). Prints no key material.")
public final class KeysShowCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", description = "A keyset file of 'fieldprof keys generate'.")
    Path file;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        String json = KeyFiles.read(file);
        KeysetHandle handle;
        String kind;
        try {
            AnalystKeys.fromPrivateKeysetJson(json);
            handle = TinkJsonProtoKeysetFormat.parseKeyset(json, InsecureSecretKeyAccess.get());
            kind = "private";
        } catch (SealingException | GeneralSecurityException | RuntimeException notPrivate) {
            try {
                AnalystKeys.sealerFromPublicKeysetJson(json);
                handle = TinkJsonProtoKeysetFormat.parseKeysetWithoutSecret(json);
                kind = "public";
            } catch (SealingException | GeneralSecurityException | RuntimeException e) {
                throw new CliFailure(
                        file + ": not an analyst keyset (Tink JSON, HPKE, private or public)", e);
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(
                kind
                        + " keyset "
                        + file
                        + ": "
                        + handle.size()
                        + (handle.size() == 1 ? " key" : " keys"));
        for (int i = 0; i < handle.size(); i++) {
            KeysetHandle.Entry entry = handle.getAt(i);
            out.println(
                    "key "
                            + String.format(Locale.ROOT, "%08x", entry.getId())
                            + (entry.isPrimary() ? " primary" : ""));
        }
        out.flush();
        return 0;
    }
}
