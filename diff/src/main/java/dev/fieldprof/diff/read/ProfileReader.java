package dev.fieldprof.diff.read;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.normalize.InferredApplication;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads one profile format into a {@link CallingContextTree}. Frame names are read as the source
 * writes them ({@code package.Class.method}); normalization happens later, in one place ({@code
 * dev.fieldprof.diff.normalize}). A new source (e.g. decoded field path reports) implements this
 * and is added to {@link ProfileReaders}.
 */
public interface ProfileReader {

    /** Short name of the format, used in messages ({@code jfr}, {@code collapsed}). */
    String format();

    /**
     * Whether this reader takes the file, judged by its name and its first bytes.
     *
     * @param file the file
     * @param head up to the first 64 bytes of the file
     */
    boolean recognizes(Path file, byte[] head);

    /** Reads the whole file. */
    CallingContextTree read(Path file) throws IOException;

    /**
     * The application's packages as this profile shows them, for when the user names none; empty
     * when it shows none (the default: a format that cannot tell).
     *
     * @param file the profile
     * @param tree what {@link #read} made of it
     */
    default Optional<InferredApplication> inferApplication(Path file, CallingContextTree tree)
            throws IOException {
        return Optional.empty();
    }
}
