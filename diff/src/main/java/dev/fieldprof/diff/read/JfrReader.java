package dev.fieldprof.diff.read;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.normalize.ApplicationPackages;
import dev.fieldprof.diff.normalize.InferredApplication;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
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

    /**
     * The application of the class whose {@code main(String[])} the recording's {@code main} thread
     * ran (see {@link #mainClass}); empty when there is none.
     */
    @Override
    public Optional<InferredApplication> inferApplication(Path file, CallingContextTree tree)
            throws IOException {
        return mainClass(file).flatMap(InferredApplication::fromMainClass);
    }

    /**
     * The class whose {@code main(String[])} the recorded program's {@code main} thread ran: in
     * that thread's stacks of any event (samples, parks, waits), the innermost {@code
     * main(String[])} frame outside the JDK, so that a launcher's {@code main} (the source
     * launcher's, Spring Boot's) is passed over for the program's own. The class found in most
     * stacks wins. Empty when no stack of a thread named {@code main} has such a frame.
     */
    public static Optional<String> mainClass(Path file) throws IOException {
        Map<String, Integer> votes = new LinkedHashMap<>();
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                RecordedStackTrace stack = event.getStackTrace();
                if (stack == null || !onMainThread(event)) {
                    continue;
                }
                for (RecordedFrame frame : stack.getFrames()) { // innermost first
                    RecordedMethod method = frame.getMethod();
                    if (method != null
                            && method.getType() != null
                            && method.getName().equals("main")
                            && method.getDescriptor().equals("([Ljava/lang/String;)V")
                            && ApplicationPackages.outsideJdk()
                                    .isApplication(method.getType().getName() + ".main")) {
                        votes.merge(method.getType().getName(), 1, Integer::sum);
                        break;
                    }
                }
            }
        } catch (IOException e) {
            throw new IOException("cannot read JFR file " + file + ": " + e.getMessage(), e);
        }
        return votes.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
    }

    private static boolean onMainThread(RecordedEvent event) {
        String field = event.hasField("sampledThread") ? "sampledThread" : "eventThread";
        if (!event.hasField(field)) {
            return false;
        }
        RecordedThread thread = event.getThread(field);
        return thread != null && "main".equals(thread.getJavaName());
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
