package dev.fieldprof.cli.support;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds a jar that a module of this checkout builds (the shaded job jar, the device artifact) for
 * the commands that use or hand it out: in {@code <module>/target} under {@code -Dfieldprof.home}
 * (which the {@code ./fieldprof} launcher passes) or {@code $FIELDPROF_HOME}, the working directory
 * and its parents, and where the CLI itself was loaded from.
 */
public final class CheckoutArtifacts {
    private CheckoutArtifacts() {}

    /**
     * The newest file matching {@code glob} in {@code <root>/<module>/target} of the first root.
     */
    public static Optional<Path> find(String module, String glob) {
        for (Path root : roots()) {
            Optional<Path> found = newest(root.resolve(module).resolve("target"), glob);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /** The most recently modified file in {@code dir} matching {@code glob}, if any. */
    public static Optional<Path> newest(Path dir, String glob) {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        Path newest = null;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, glob)) {
            for (Path candidate : files) {
                if (newest == null
                        || Files.getLastModifiedTime(candidate)
                                        .compareTo(Files.getLastModifiedTime(newest))
                                > 0) {
                    newest = candidate;
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.ofNullable(newest);
    }

    private static List<Path> roots() {
        List<Path> roots = new ArrayList<>();
        // The ./fieldprof launcher passes the checkout it lives in.
        for (String home :
                new String[] {
                    System.getProperty("fieldprof.home"), System.getenv("FIELDPROF_HOME")
                }) {
            if (home != null && !home.isBlank()) {
                roots.add(Path.of(home));
            }
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            roots.add(dir);
        }
        codeLocation()
                .ifPresent(
                        location -> {
                            for (Path dir = location; dir != null; dir = dir.getParent()) {
                                roots.add(dir);
                            }
                        });
        return roots;
    }

    private static Optional<Path> codeLocation() {
        try {
            URI location =
                    CheckoutArtifacts.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI();
            return Optional.of(Path.of(location).toAbsolutePath());
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
