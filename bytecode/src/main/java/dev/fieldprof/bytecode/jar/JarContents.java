package dev.fieldprof.bytecode.jar;

import dev.fieldprof.bytecode.MethodSignatures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;

/**
 * A jar read whole into memory, entry order kept: the class files by internal name and every
 * entry's bytes, so that analysis and instrumentation see exactly the same bytes.
 */
public final class JarContents {

    /** One entry of the jar, in file order. */
    public record Entry(String name, byte[] bytes, boolean directory, long time) {}

    private final Path path;
    private final List<Entry> entries;
    private final Map<String, byte[]> classes;

    private JarContents(Path path, List<Entry> entries, Map<String, byte[]> classes) {
        this.path = path;
        this.entries = Collections.unmodifiableList(entries);
        this.classes = Collections.unmodifiableMap(classes);
    }

    /**
     * Reads a jar; fails with an {@link InvalidJarException} whose message names the file and what
     * is wrong (missing, a directory, not a zip).
     */
    public static JarContents read(Path jar) {
        if (!Files.exists(jar)) {
            throw new InvalidJarException("no such file: " + jar);
        }
        if (Files.isDirectory(jar)) {
            throw new InvalidJarException("is a directory, not a jar: " + jar);
        }
        List<Entry> entries = new ArrayList<>();
        Map<String, byte[]> classes = new LinkedHashMap<>();
        try (InputStream file = Files.newInputStream(jar);
                ZipInputStream zip = new ZipInputStream(file)) {
            ZipEntry entry;
            while ((entry = zip.getNextEntry()) != null) {
                byte[] bytes = entry.isDirectory() ? new byte[0] : zip.readAllBytes();
                entries.add(
                        new Entry(entry.getName(), bytes, entry.isDirectory(), entry.getTime()));
                String internalName = MethodSignatures.internalNameOfEntry(entry.getName());
                // The base version of a class wins; multi-release variants are instrumented alike.
                if (internalName != null
                        && !entry.getName().startsWith("META-INF/")
                        && !classes.containsKey(internalName)) {
                    classes.put(internalName, bytes);
                }
            }
        } catch (NoSuchFileException e) {
            throw new InvalidJarException("no such file: " + jar);
        } catch (ZipException e) {
            throw new InvalidJarException("not a jar (" + e.getMessage() + "): " + jar);
        } catch (IOException e) {
            throw new InvalidJarException("cannot read " + jar + ": " + e.getMessage());
        }
        if (entries.isEmpty()) {
            throw new InvalidJarException("not a jar (no zip entries): " + jar);
        }
        return new JarContents(jar, entries, classes);
    }

    public Path path() {
        return path;
    }

    /** Every entry in file order. */
    public List<Entry> entries() {
        return entries;
    }

    /** Class file bytes by internal name ({@code a/b/C}), base versions only. */
    public Map<String, byte[]> classes() {
        return classes;
    }

    /** The manifest, or null when the jar has none or it is unreadable. */
    public Manifest manifest() {
        for (Entry entry : entries) {
            if (entry.name().equalsIgnoreCase("META-INF/MANIFEST.MF")) {
                try {
                    return new Manifest(new java.io.ByteArrayInputStream(entry.bytes()));
                } catch (IOException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /**
     * Signature-related entries (META-INF/*.SF, *.RSA, *.DSA, *.EC, SIG-*): non-empty means signed.
     */
    public List<String> signatureEntries() {
        List<String> names = new ArrayList<>();
        for (Entry entry : entries) {
            if (isSignatureEntry(entry.name())) {
                names.add(entry.name());
            }
        }
        return names;
    }

    /** True for the files that make up a jar signature. */
    public static boolean isSignatureEntry(String name) {
        String upper = name.toUpperCase(java.util.Locale.ROOT);
        if (!upper.startsWith("META-INF/") || upper.indexOf('/', "META-INF/".length()) >= 0) {
            return false;
        }
        String file = upper.substring("META-INF/".length());
        return file.endsWith(".SF")
                || file.endsWith(".RSA")
                || file.endsWith(".DSA")
                || file.endsWith(".EC")
                || file.startsWith("SIG-");
    }
}
