package dev.fieldprof.it;

import dev.fieldprof.samples.notes.UserSession;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** The sample program (samples/demo-app) as a jar, the way fieldprof analyzes programs. */
final class SampleProgram {
    private SampleProgram() {}

    /**
     * The sample program's jar: the one on the test classpath, or, when the classpath holds its
     * classes folder instead (an IDE, or a reactor build before packaging), a jar of that folder
     * written into {@code workDir}.
     */
    static Path jar(Path workDir) throws IOException {
        Path location;
        try {
            location =
                    Path.of(
                            UserSession.class
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        if (Files.isRegularFile(location)) {
            return location;
        }
        Path jar = workDir.resolve("demo-app.jar");
        try (OutputStream file = Files.newOutputStream(jar);
                ZipOutputStream zip = new ZipOutputStream(file);
                Stream<Path> classes = Files.walk(location)) {
            for (Path path : classes.filter(Files::isRegularFile).sorted().toList()) {
                zip.putNextEntry(
                        new ZipEntry(location.relativize(path).toString().replace('\\', '/')));
                zip.write(Files.readAllBytes(path));
                zip.closeEntry();
            }
        }
        return jar;
    }
}
