package dev.fieldprof.diff.read;

import dev.fieldprof.diff.cct.CallingContextTree;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Picks the reader for a profile file. Readers are tried in order; the collapsed-stacks reader
 * takes any text file, so it comes last.
 */
public final class ProfileReaders {
    private final List<ProfileReader> readers;

    /** The given readers, tried in order. */
    public ProfileReaders(List<ProfileReader> readers) {
        if (readers.isEmpty()) {
            throw new IllegalArgumentException("at least one reader is needed");
        }
        this.readers = List.copyOf(readers);
    }

    /** JFR files (execution samples) and collapsed stacks. */
    public static ProfileReaders standard() {
        return new ProfileReaders(
                List.of(
                        new JfrReader(JfrReader.Cost.EXECUTION_SAMPLES),
                        new CollapsedStacksReader()));
    }

    /** The reader that takes this file. */
    public ProfileReader forFile(Path file) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(64);
        }
        for (ProfileReader reader : readers) {
            if (reader.recognizes(file, head)) {
                return reader;
            }
        }
        throw new IOException("unrecognized profile format: " + file);
    }

    /** Reads the file with the reader that takes it. */
    public CallingContextTree read(Path file) throws IOException {
        return forFile(file).read(file);
    }
}
