package dev.fieldprof.paths;

import dev.fieldprof.schemas.BranchNodeFrequencies;
import dev.fieldprof.schemas.SuccessorHint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Converts between the published Avro {@code dev.fieldprof.schemas.EdgeModel} (topic {@code
 * fieldprof.models.edges}) and the coder's {@link EdgeModel}. Only nodes whose frequencies are not
 * all 1 are written, as the schema says; reading checks the branch fingerprint so a model for other
 * bytecode is refused instead of silently mis-coding.
 */
public final class EdgeModelRecords {
    private EdgeModelRecords() {}

    /** The record of {@code model} for {@code appVersion}. */
    public static dev.fieldprof.schemas.EdgeModel toRecord(
            EdgeModel model, String appVersion, Instant createdAt, long windowReports) {
        BranchTable table = model.branchTable();
        int methods = table.methodCount();
        List<BranchNodeFrequencies> nodes = new ArrayList<>();
        for (int m = 0; m < methods; m++) {
            for (int block : table.branchBlocks(m)) {
                int[] f = model.frequencies(m, block);
                boolean allOnes = true;
                for (int x : f) {
                    allOnes &= x == 1;
                }
                if (!allOnes) {
                    nodes.add(
                            BranchNodeFrequencies.newBuilder()
                                    .setMethodId(m)
                                    .setBlockId(block)
                                    .setFrequencies(ints(f))
                                    .build());
                }
            }
        }
        List<SuccessorHint> hints = new ArrayList<>();
        for (int m = 0; m <= methods; m++) {
            for (int context : model.successorContexts(m)) {
                hints.add(
                        SuccessorHint.newBuilder()
                                .setMethodId(m)
                                .setContext(context)
                                .setSymbols(ints(model.successorSymbols(m, context)))
                                .setFrequencies(ints(model.successorFrequencies(m, context)))
                                .build());
            }
        }
        return dev.fieldprof.schemas.EdgeModel.newBuilder()
                .setAppVersion(appVersion)
                .setVersion(model.version())
                .setWriter(model.writer())
                .setBranchFingerprint(model.branchFingerprint())
                .setPathFormat(PathFormat.CURRENT)
                .setInc(model.inc())
                .setBound(model.bound())
                .setCreatedAtMillis(createdAt)
                .setWindowReports(windowReports)
                .setNodes(nodes)
                .setSuccessorHints(hints)
                .build();
    }

    /**
     * The coder's model of a record, for the branch nodes of {@code table}.
     *
     * @throws IllegalArgumentException if the record is for other branch nodes (fingerprint), a
     *     newer path format, or holds invalid frequencies
     */
    public static EdgeModel fromRecord(dev.fieldprof.schemas.EdgeModel record, BranchTable table) {
        long expected = EdgeModel.branchFingerprint(table);
        if (record.getBranchFingerprint() != expected) {
            throw new IllegalArgumentException(
                    "edge model "
                            + record.getVersion()
                            + " is for branch fingerprint "
                            + Long.toHexString(record.getBranchFingerprint())
                            + ", this code has "
                            + Long.toHexString(expected));
        }
        if (record.getPathFormat() > PathFormat.CURRENT) {
            throw new IllegalArgumentException(
                    "edge model "
                            + record.getVersion()
                            + " uses path format "
                            + record.getPathFormat());
        }
        EdgeModel base =
                EdgeModel.uniform(table, record.getVersion(), record.getInc(), record.getBound());
        EdgeModel.Builder b = EdgeModel.builder(base).writer(record.getWriter().toString());
        for (BranchNodeFrequencies node : record.getNodes()) {
            b.frequencies(node.getMethodId(), node.getBlockId(), array(node.getFrequencies()));
        }
        for (SuccessorHint hint : record.getSuccessorHints()) {
            b.successors(
                    hint.getMethodId(),
                    hint.getContext(),
                    array(hint.getSymbols()),
                    array(hint.getFrequencies()));
        }
        return b.build();
    }

    private static List<Integer> ints(int[] values) {
        List<Integer> out = new ArrayList<>(values.length);
        for (int v : values) {
            out.add(v);
        }
        return out;
    }

    private static int[] array(List<Integer> values) {
        int[] out = new int[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = values.get(i);
        }
        return out;
    }
}
