package dev.fieldprof.jobs.frequency.validation;

import dev.fieldprof.jobs.frequency.core.ProgramShape;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The program shapes one validation instance knows, per app version the latest generation first (at
 * most {@link #GENERATIONS}). Held in memory, so that validating a report reads no state and no
 * model; saved as compact bytes in union operator state, so that after a restore with another
 * parallelism or shard count every instance knows every app version at once (a keyed copy per shard
 * would leave new shards without models until each model is republished).
 */
final class KnownPrograms {
    /** Generations kept per app version: reports of older ones are dead-lettered MODEL_CHANGED. */
    static final int GENERATIONS = 4;

    private final Map<String, List<ProgramShape>> byApp = new HashMap<>();

    /** The known generations of {@code appVersion}, the latest first; empty when none is. */
    List<ProgramShape> generations(String appVersion) {
        return byApp.getOrDefault(appVersion, List.of());
    }

    /**
     * Records a published shape: a new generation goes first; a republication of a known one moves
     * it first again. Returns true when the shape was not the latest already.
     */
    boolean learn(ProgramShape shape) {
        List<ProgramShape> known =
                byApp.computeIfAbsent(shape.appVersion(), app -> new ArrayList<>());
        if (!known.isEmpty() && known.get(0).generation() == shape.generation()) {
            return false;
        }
        known.removeIf(old -> old.generation() == shape.generation());
        known.add(0, shape);
        if (known.size() > GENERATIONS) {
            known.remove(known.size() - 1);
        }
        return true;
    }

    /** One entry per app version, for union operator state. */
    List<byte[]> snapshot() {
        List<byte[]> entries = new ArrayList<>();
        byApp.forEach((app, shapes) -> entries.add(encode(app, shapes)));
        return entries;
    }

    /**
     * Merges entries saved by any instance: per app version the longest history wins (instances
     * that saw fewer of its publications hold a suffix of it).
     */
    void restore(Iterable<byte[]> entries) {
        for (byte[] entry : entries) {
            List<ProgramShape> shapes = decode(entry);
            if (shapes.isEmpty()) {
                continue;
            }
            String app = shapes.get(0).appVersion();
            List<ProgramShape> known = byApp.get(app);
            if (known == null || known.size() < shapes.size()) {
                byApp.put(app, new ArrayList<>(shapes));
            }
        }
    }

    private static byte[] encode(String app, List<ProgramShape> shapes) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(app);
            out.writeInt(shapes.size());
            for (ProgramShape shape : shapes) {
                shape.write(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static List<ProgramShape> decode(byte[] entry) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(entry))) {
            String app = in.readUTF();
            int count = in.readInt();
            List<ProgramShape> shapes = new ArrayList<>(count);
            for (int s = 0; s < count; s++) {
                shapes.add(ProgramShape.read(app, in));
            }
            return shapes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
