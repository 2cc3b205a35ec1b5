package dev.fieldprof.bytecode.instrument;

import dev.fieldprof.bytecode.MethodSignatures;
import dev.fieldprof.bytecode.cfg.BranchDescription;
import dev.fieldprof.bytecode.jar.InvalidJarException;
import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.ProgramModel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes an instrumented copy of an application jar: a method-entry probe calling {@code
 * dev.fieldprof.client.Probes.enter(id)} in every method of the model's V, and {@code
 * META-INF/fieldprof/client.properties} telling the client SDK the app version, |V| and the privacy
 * configuration. Class versions and attributes (records, nestmates, sealed types, invokedynamic)
 * are kept because ASM copies what it does not change; classes without model methods and resources
 * are copied byte for byte.
 */
public final class JarInstrumenter {

    /** Where the client SDK reads its configuration from inside the instrumented jar. */
    public static final String CLIENT_PROPERTIES = "META-INF/fieldprof/client.properties";

    private final boolean stripSignatures;
    private final DeviceBudget budget;

    /**
     * An instrumenter that writes no budget into the jar: its devices get the client SDK's default
     * budget ({@link dev.fieldprof.schemas.PrivacyDefaults}, the same as {@link
     * DeviceBudget#DEFAULT}) unless they are given {@code -Dfieldprof.privacy.budget}.
     *
     * @param stripSignatures if false, signed jars are refused (instrumenting invalidates the
     *     signature); if true their signature files and per-entry digests are removed
     */
    public JarInstrumenter(boolean stripSignatures) {
        this(stripSignatures, null);
    }

    /**
     * @param stripSignatures as in {@link #JarInstrumenter(boolean)}
     * @param budget the budget written into the jar for its devices ({@link DeviceBudget#NONE} for
     *     none); null to write none and leave devices the SDK's default
     */
    public JarInstrumenter(boolean stripSignatures, DeviceBudget budget) {
        this.stripSignatures = stripSignatures;
        this.budget = budget;
    }

    /**
     * Instruments {@code inputJar} for {@code model} into {@code outputJar} (replaced if present).
     */
    public InstrumentationResult instrument(Path inputJar, ProgramModel model, Path outputJar) {
        return instrument(inputJar, model, null, Map.of(), outputJar);
    }

    /**
     * As above, also with path probes from {@code paths} (null: none) in the methods it traces, its
     * branch description written as {@link BranchDescription#RESOURCE}, and {@code resources} (jar
     * entry name → bytes, such as the probe plan) written into the jar in place of entries of the
     * same name. Every class goes through the one {@link ProbeTransform} the device agent uses too.
     */
    public InstrumentationResult instrument(
            Path inputJar,
            ProgramModel model,
            PathProbeInstrumenter paths,
            Map<String, byte[]> resources,
            Path outputJar) {
        long start = System.nanoTime();
        if (budget != null && !model.getPrivacyConfigs().isEmpty()) {
            // Before any work: a jar whose devices could never report is not worth writing.
            budget.checkAffords(model.getPrivacyConfigs().get(0));
        }
        JarContents jar = JarContents.read(inputJar);
        List<String> signatureEntries = jar.signatureEntries();
        if (!signatureEntries.isEmpty() && !stripSignatures) {
            throw new InvalidJarException(
                    "refusing to instrument signed jar "
                            + inputJar
                            + " (signature files "
                            + signatureEntries
                            + "): instrumentation breaks the signature; use --strip-signatures"
                            + " to remove it");
        }
        ProbeTransform transform = new ProbeTransform(model, paths);
        Map<String, byte[]> written = new TreeMap<>(resources);
        if (paths != null) {
            written.put(BranchDescription.RESOURCE, new byte[0]); // written last, once complete
        }
        written.put(
                CLIENT_PROPERTIES,
                clientProperties(model, budget).getBytes(StandardCharsets.UTF_8));
        int copied = 0;
        int resourcesCopied = 0;
        Path temporary = temporaryNextTo(outputJar);
        try (OutputStream file = Files.newOutputStream(temporary);
                ZipOutputStream out = new ZipOutputStream(file)) {
            Set<String> seen = new HashSet<>();
            for (JarContents.Entry entry : jar.entries()) {
                String name = entry.name();
                if (JarContents.isSignatureEntry(name)
                        || written.containsKey(name)
                        || !seen.add(name)) {
                    continue;
                }
                byte[] bytes = entry.bytes();
                String internalName = MethodSignatures.internalNameOfEntry(name);
                if (name.equalsIgnoreCase("META-INF/MANIFEST.MF") && !signatureEntries.isEmpty()) {
                    bytes = manifestWithoutDigests(bytes);
                } else if (internalName != null) {
                    byte[] rewritten = transform.transform(internalName, bytes);
                    if (rewritten != null) {
                        bytes = rewritten;
                    } else {
                        copied++;
                    }
                } else if (!entry.directory()) {
                    resourcesCopied++;
                }
                ZipEntry outEntry = new ZipEntry(name);
                if (entry.time() >= 0) {
                    outEntry.setTime(entry.time());
                }
                out.putNextEntry(outEntry);
                out.write(bytes);
                out.closeEntry();
            }
            if (paths != null) {
                written.put(
                        BranchDescription.RESOURCE,
                        paths.branches(model.getMethods().size())
                                .toText()
                                .getBytes(StandardCharsets.UTF_8));
            }
            for (Map.Entry<String, byte[]> resource : written.entrySet()) {
                out.putNextEntry(new ZipEntry(resource.getKey()));
                out.write(resource.getValue());
                out.closeEntry();
            }
        } catch (IOException e) {
            deleteQuietly(temporary);
            throw new UncheckedIOException("cannot write " + outputJar + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            deleteQuietly(temporary);
            throw e;
        }
        try {
            Files.move(temporary, outputJar, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            deleteQuietly(temporary);
            throw new UncheckedIOException("cannot write " + outputJar + ": " + e.getMessage(), e);
        }
        Set<String> found = transform.methodsFound();
        List<String> missing = new ArrayList<>();
        for (MethodInfo method : model.getMethods()) {
            if (!found.contains(method.getSignature())) {
                missing.add(method.getSignature());
            }
        }
        return new InstrumentationResult(
                transform.classesInstrumented(),
                copied,
                transform.entryProbes(),
                resourcesCopied,
                missing,
                stripSignatures ? signatureEntries : List.of(),
                (System.nanoTime() - start) / 1e9);
    }

    /**
     * The client SDK's configuration, from the model and its first privacy configuration: the text
     * of {@link #CLIENT_PROPERTIES}, which the device agent hands the SDK instead.
     *
     * @param budget the device budget written with it; null to write none (devices then get the
     *     SDK's default)
     */
    public static String clientProperties(ProgramModel model, DeviceBudget budget) {
        if (model.getPrivacyConfigs().isEmpty()) {
            throw new IllegalArgumentException(
                    "model of " + model.getAppVersion() + " has no privacy configuration");
        }
        PrivacyConfig config = model.getPrivacyConfigs().get(0);
        StringBuilder out = new StringBuilder();
        out.append("# written by fieldprof instrument\n");
        out.append("app.version=").append(escape(model.getAppVersion())).append('\n');
        out.append("method.count=").append(model.getMethods().size()).append('\n');
        out.append("privacy.config.id=").append(escape(config.getConfigId())).append('\n');
        out.append("privacy.epsilon=").append(Double.toString(config.getEpsilon())).append('\n');
        out.append("privacy.t=").append(config.getT()).append('\n');
        out.append("privacy.k=").append(config.getK()).append('\n');
        // Always named: a configuration without it is the SDK's default mode, user-level.
        out.append(
                config.getMode() == dev.fieldprof.schemas.PrivacyMode.USER_LEVEL
                        ? "privacy.mode=user-level\n"
                        : "privacy.mode=epsilon-t\n");
        // The shuffled mode: reports are sealed and go to the shuffler. The analyst's public
        // keyset is the device's setting (shuffler.analyst.public.keyset), not the program's.
        if (config.getShuffler() != null) {
            out.append("privacy.shuffler.min.batch.size=")
                    .append(config.getShuffler().getMinBatchSize())
                    .append('\n');
            out.append("privacy.shuffler.delta=")
                    .append(Double.toString(config.getShuffler().getDelta()))
                    .append('\n');
        }
        if (budget != null) {
            out.append(budget.properties());
        }
        return out.toString();
    }

    private static String escape(CharSequence value) {
        StringBuilder out = new StringBuilder();
        String text = value.toString();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\', ':', '=', '#', '!' -> out.append('\\').append(c);
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    /** The manifest without the per-entry digests of a removed signature. */
    private static byte[] manifestWithoutDigests(byte[] manifestBytes) {
        try {
            Manifest manifest = new Manifest(new java.io.ByteArrayInputStream(manifestBytes));
            manifest.getEntries()
                    .values()
                    .forEach(
                            attributes ->
                                    attributes
                                            .keySet()
                                            .removeIf(
                                                    key ->
                                                            key.toString()
                                                                    .toUpperCase(
                                                                            java.util.Locale.ROOT)
                                                                    .endsWith("-DIGEST")));
            manifest.getEntries().values().removeIf(Attributes::isEmpty);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            manifest.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new InvalidJarException("unreadable manifest: " + e.getMessage());
        }
    }

    private static Path temporaryNextTo(Path output) {
        try {
            Path parent = output.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            return Files.createTempFile(parent, ".fieldprof-", ".jar.tmp");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write next to " + output + ": " + e, e);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // best effort: the temporary file is hidden and harmless
        }
    }
}
