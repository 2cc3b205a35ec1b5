package dev.fieldprof.cli.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;

/** A jar compiled from one Java source file, the real input the analysis commands are tested on. */
final class SourceJar {
    private SourceJar() {}

    /**
     * Compiles {@code source} (the file of class {@code className}, e.g. {@code tiny.Main}) under
     * {@code work} and packs its classes into {@code work/jarName}.
     */
    static Path compile(Path work, String className, String source, String jarName)
            throws IOException {
        Path file = work.resolve("src").resolve(className.replace('.', '/') + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source);
        Path classes = work.resolve("classes");
        int exit =
                ToolProvider.getSystemJavaCompiler()
                        .run(null, null, null, "-d", classes.toString(), file.toString());
        if (exit != 0) {
            throw new IllegalStateException("javac failed on " + file + ": exit " + exit);
        }
        Path jar = work.resolve(jarName);
        try (JarOutputStream stream = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(classes)) {
            for (Path path : files.filter(Files::isRegularFile).toList()) {
                stream.putNextEntry(new JarEntry(classes.relativize(path).toString()));
                stream.write(Files.readAllBytes(path));
                stream.closeEntry();
            }
        }
        return jar;
    }
}
