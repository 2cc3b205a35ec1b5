package dev.fieldprof.analysis;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Compiles a fixture case from {@code src/test/fixtures/<case>} at test time and jars it. */
public final class FixtureJars {

    private FixtureJars() {}

    public static Path sources(String fixtureCase) {
        return Paths.get("src/test/fixtures", fixtureCase).toAbsolutePath();
    }

    /**
     * Compiles every .java file of the case into {@code classesDir} (release 17, with debug info).
     */
    public static Path compile(String fixtureCase, Path classesDir, String classpath)
            throws IOException {
        List<String> files;
        try (Stream<Path> walk = Files.walk(sources(fixtureCase))) {
            files = walk.filter(p -> p.toString().endsWith(".java")).map(Path::toString).toList();
        }
        Files.createDirectories(classesDir);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        List<String> args =
                new ArrayList<>(List.of("--release", "17", "-g", "-d", classesDir.toString()));
        if (classpath != null) {
            args.addAll(List.of("-cp", classpath));
        }
        args.addAll(files);
        StringWriter errors = new StringWriter();
        int exit =
                compiler.run(
                        null,
                        new java.io.PrintStream(OutputStream.nullOutputStream()),
                        new java.io.PrintStream(
                                new java.io.ByteArrayOutputStream() {
                                    @Override
                                    public void flush() {
                                        errors.write(toString());
                                    }
                                },
                                true),
                        args.toArray(String[]::new));
        if (exit != 0) {
            throw new IllegalStateException(
                    "fixture " + fixtureCase + " does not compile: " + errors);
        }
        return classesDir;
    }

    /** Compiles the case and packs its classes into {@code jar}. */
    public static Path compileToJar(String fixtureCase, Path workDir, String classpath)
            throws IOException {
        Path classes = compile(fixtureCase, workDir.resolve(fixtureCase + "-classes"), classpath);
        Path jar = workDir.resolve(fixtureCase + ".jar");
        jar(classes, jar, List.of());
        return jar;
    }

    /** Writes a jar of a directory's files, plus extra (name, bytes) entries. */
    public static void jar(Path dir, Path jar, List<java.util.Map.Entry<String, byte[]>> extra)
            throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jar))) {
            for (java.util.Map.Entry<String, byte[]> e : extra) {
                out.putNextEntry(new ZipEntry(e.getKey()));
                out.write(e.getValue());
                out.closeEntry();
            }
            for (Path file : files) {
                out.putNextEntry(new ZipEntry(dir.relativize(file).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(file));
                out.closeEntry();
            }
        }
    }
}
