package dev.fieldprof.diff.read;

import dev.fieldprof.diff.cct.CallingContextTree;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a Java Flight Recorder file with {@link RecordingFile}: each stack of the chosen event type
 * is one path of the tree. Cost is either the number of {@code jdk.ExecutionSample} events or the
 * {@code weight} (bytes) of {@code jdk.ObjectAllocationSample} events. Frames are named {@code
 * package.Class.method}, without descriptors, as collapsed stacks name them. JFR keeps the
 * innermost frames of a deep stack; a truncated stack is hung under a {@link #TRUNCATED} frame so
 * that its partial path is not mistaken for a thread's real root.
 */
public final class JfrReader implements ProfileReader {
    /** The synthetic caller of stacks JFR truncated at its stack depth. */
    public static final String TRUNCATED = "[truncated]";

    private static final byte[] MAGIC = {'F', 'L', 'R', 0};

    /** What a stack costs. */
    public enum Cost {
        /** One per {@code jdk.ExecutionSample} (CPU time of Java code). */
        EXECUTION_SAMPLES("jdk.ExecutionSample"),
        /** The {@code weight} of each {@code jdk.ObjectAllocationSample} (bytes allocated). */
        ALLOCATION_WEIGHT("jdk.ObjectAllocationSample");

        private final String eventType;

        Cost(String eventType) {
            this.eventType = eventType;
        }

        /** The JFR event type read. */
        public String eventType() {
            return eventType;
        }
    }

    private final Cost cost;

    /** A reader of the given cost; stateless and thread-safe. */
    public JfrReader(Cost cost) {
        this.cost = java.util.Objects.requireNonNull(cost, "cost");
    }

    @Override
    public String format() {
        return "jfr";
    }

    @Override
    public boolean recognizes(Path file, byte[] head) {
        if (head.length >= MAGIC.length) {
            boolean magic = true;
            for (int i = 0; i < MAGIC.length; i++) {
                magic &= head[i] == MAGIC[i];
            }
            if (magic) {
                return true;
            }
        }
        return file.getFileName().toString().endsWith(".jfr");
    }

    @Override
    public CallingContextTree read(Path file) throws IOException {
        CallingContextTree tree = new CallingContextTree();
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                if (!event.getEventType().getName().equals(cost.eventType())) {
                    continue;
                }
                RecordedStackTrace stack = event.getStackTrace();
                if (stack == null) {
                    continue;
                }
                long weight = cost == Cost.EXECUTION_SAMPLES ? 1 : event.getLong("weight");
                tree.addStack(frames(stack), Math.max(0, weight));
            }
        } catch (IOException e) {
            throw new IOException("cannot read JFR file " + file + ": " + e.getMessage(), e);
        }
        return tree;
    }

    private static List<String> frames(RecordedStackTrace stack) {
        List<RecordedFrame> topFirst = stack.getFrames();
        List<String> rootFirst = new ArrayList<>(topFirst.size() + 1);
        if (stack.isTruncated()) {
            rootFirst.add(TRUNCATED);
        }
        for (int i = topFirst.size() - 1; i >= 0; i--) {
            rootFirst.add(name(topFirst.get(i)));
        }
        return rootFirst;
    }

    private static String name(RecordedFrame frame) {
        RecordedMethod method = frame.getMethod();
        if (method == null) {
            return "[unknown]";
        }
        String type = method.getType() == null ? "[unknown]" : method.getType().getName();
        return type + "." + method.getName();
    }
}
