package dev.fieldprof.jobs.frequency.core;

import dev.fieldprof.schemas.Topics;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Program model bytes as the job broadcasts them and keeps them in the estimator's broadcast state:
 * gzip-compressed, since every estimator subtask writes that state again at every checkpoint and a
 * model of a million methods is tens of MB of signatures. Bytes written before compression (a
 * model's Avro single-object encoding, which starts with 0xC3 0x01, never gzip's 0x1F 0x8B) are
 * read as they are, so state from earlier checkpoints restores.
 */
public final class StoredModels {
    private StoredModels() {}

    /** {@code model} compressed (fast compression: it is written once per model, read rarely). */
    public static byte[] compress(byte[] model) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(model.length / 4 + 64);
        try (GZIPOutputStream gzip =
                new GZIPOutputStream(out, 1 << 16) {
                    {
                        def.setLevel(Deflater.BEST_SPEED);
                    }
                }) {
            gzip.write(model);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compress a program model", e);
        }
        return out.toByteArray();
    }

    /**
     * The model's encoded bytes from {@link #compress}'s output, or {@code stored} itself when it
     * was kept uncompressed.
     *
     * @throws IllegalArgumentException when the bytes do not inflate, or inflate past the largest
     *     model a programs topic holds
     */
    public static byte[] open(byte[] stored) {
        if (stored.length < 2 || stored[0] != (byte) 0x1F || stored[1] != (byte) 0x8B) {
            return stored;
        }
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(stored), 1 << 16)) {
            byte[] model = in.readNBytes(Topics.MAX_MODEL_BYTES + 1);
            if (model.length > Topics.MAX_MODEL_BYTES) {
                throw new IllegalArgumentException(
                        "a stored program model inflates past "
                                + Topics.MAX_MODEL_BYTES
                                + " bytes");
            }
            return model;
        } catch (IOException e) {
            throw new IllegalArgumentException("a stored program model does not inflate: " + e, e);
        }
    }
}
