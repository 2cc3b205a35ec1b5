package dev.fieldprof.diff.read;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.InvalidPathReportException;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathEventSink;
import dev.fieldprof.paths.PathReportHeader;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.ProgramModel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Builds the calling-context tree of an app version from its decoded field path reports: each
 * report is decoded with {@link PathDecoder} and the edge model it names, and its method entries
 * and exits are replayed onto a call stack. The cost of a node is the number of times its method
 * was entered in that calling context (invocations); branches do not count. Frame names are the
 * method signatures of the program model.
 *
 * <p>A report cut from a longer run starts inside open frames; its header names them, and they
 * become the stack the report's events continue. Reports that do not decode (unknown model, corrupt
 * bytes) are counted and skipped. Not thread-safe.
 *
 * <pre>{@code
 * FieldPathTrees trees = new FieldPathTrees(FieldPathTrees.signatures(program), models::get);
 * reports.forEach(trees::add);
 * CallingContextTree tree = trees.tree();
 * }</pre>
 */
public final class FieldPathTrees {
    private final List<String> signatures;
    private final BiFunction<Long, String, EdgeModel> models;
    private final Map<EdgeModel, PathDecoder> decoders = new HashMap<>();
    private final CallingContextTree tree = new CallingContextTree();
    private final Replay replay = new Replay();
    private long reports;
    private long skipped;

    /**
     * @param signatures the signature of each method id of the app version
     * @param models the edge model of a (version, writer) pair a report names, or {@code null} if
     *     unknown
     */
    public FieldPathTrees(List<String> signatures, BiFunction<Long, String, EdgeModel> models) {
        this.signatures = List.copyOf(signatures);
        this.models = java.util.Objects.requireNonNull(models, "models");
    }

    /** The method signatures of a program model, by id. */
    public static List<String> signatures(ProgramModel program) {
        String[] names = new String[program.getMethods().size()];
        for (MethodInfo method : program.getMethods()) {
            names[method.getId()] = method.getSignature();
        }
        return List.of(names);
    }

    /**
     * Adds one report's events.
     *
     * @return whether the report was decoded (else it was skipped and counted)
     */
    public boolean add(PathReport report) {
        EdgeModel model = models.apply(report.getModelVersion(), report.getModelWriter());
        if (model == null) {
            skipped++;
            return false;
        }
        PathDecoder decoder = decoders.computeIfAbsent(model, PathDecoder::new);
        // Decode into a buffer first: a report that fails halfway must leave no trace.
        List<long[]> events = new ArrayList<>();
        PathReportHeader[] header = new PathReportHeader[1];
        try {
            decoder.decode(
                    bytes(report.getCoded()),
                    new PathEventSink() {
                        @Override
                        public void begin(PathReportHeader h) {
                            header[0] = h;
                        }

                        @Override
                        public void enter(int methodId) {
                            events.add(new long[] {methodId});
                        }

                        @Override
                        public void branch(int methodId, int blockId, int edgeIndex) {}

                        @Override
                        public void exit(int methodId, boolean exceptional) {
                            events.add(new long[] {-1 - methodId});
                        }
                    });
        } catch (InvalidPathReportException | RuntimeException e) {
            skipped++;
            return false;
        }
        replay.begin(header[0]);
        for (long[] event : events) {
            if (event[0] >= 0) {
                replay.enter((int) event[0]);
            } else {
                replay.exit();
            }
        }
        reports++;
        return true;
    }

    /** The tree so far. */
    public CallingContextTree tree() {
        return tree;
    }

    /** Reports decoded and added. */
    public long reports() {
        return reports;
    }

    /** Reports skipped (no known model, or not decodable). */
    public long skipped() {
        return skipped;
    }

    private String name(int methodId) {
        return methodId >= 0 && methodId < signatures.size()
                ? signatures.get(methodId)
                : "#" + methodId;
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }

    /** The call stack of the report being replayed. */
    private final class Replay {
        private final List<String> stack = new ArrayList<>();

        void begin(PathReportHeader header) {
            stack.clear();
            if (header != null) {
                for (int m : header.openMethods()) {
                    stack.add(name(m));
                }
            }
        }

        void enter(int methodId) {
            stack.add(name(methodId));
            tree.addStack(stack, 1);
        }

        void exit() {
            if (!stack.isEmpty()) {
                stack.remove(stack.size() - 1);
            }
        }
    }
}
