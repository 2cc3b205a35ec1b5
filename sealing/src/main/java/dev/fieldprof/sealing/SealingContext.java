package dev.fieldprof.sealing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The associated data of a sealed report: a fixed label, the app version and the configuration id,
 * each length-prefixed so that no two different pairs give the same bytes. Sealing and opening must
 * name the same pair, so the shuffler, which sees both in the clear, cannot move a payload to
 * another group without it failing to open.
 */
public final class SealingContext {
    private static final byte[] LABEL =
            "fieldprof sealed report v1".getBytes(StandardCharsets.UTF_8);

    private SealingContext() {}

    /** The associated-data bytes for one (app version, configuration) pair. */
    public static byte[] of(String appVersion, String configId) {
        Objects.requireNonNull(appVersion, "appVersion");
        Objects.requireNonNull(configId, "configId");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        append(out, LABEL);
        append(out, appVersion.getBytes(StandardCharsets.UTF_8));
        append(out, configId.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    private static void append(ByteArrayOutputStream out, byte[] field) {
        int length = field.length;
        out.write(length >>> 24);
        out.write(length >>> 16);
        out.write(length >>> 8);
        out.write(length);
        out.write(field, 0, length);
    }
}
