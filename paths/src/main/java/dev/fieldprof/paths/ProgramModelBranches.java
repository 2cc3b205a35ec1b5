package dev.fieldprof.paths;

import dev.fieldprof.schemas.CfgEdge;
import dev.fieldprof.schemas.CfgEdgeKind;
import dev.fieldprof.schemas.MethodCfg;
import dev.fieldprof.schemas.ProgramModel;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds the path coder's {@link BranchTable} from the CFGs a ProgramModel carries (schema v2,
 * field {@code cfgs}), so the PathModelJob can decode an app version's path reports from its
 * program model alone (docs/architecture.md, "Paths"). The table equals the one the path
 * instrumenter writes into the jar ({@link BranchTableText#RESOURCE}) when it traced every method
 * of the model: the branch nodes are the model's {@code branchBlocks} whose normal (non-exception)
 * out-edges number 2 to {@link BranchTable#MAX_DEGREE}, the edges counted in the model's edge
 * order, which is the order the probes number them in. Exception edges are left out because no
 * probe codes them: an exceptional exit is its own event. Methods the instrumenter skipped or was
 * told not to trace are not known here; for such jars use the jar's own description instead.
 */
public final class ProgramModelBranches {
    private ProgramModelBranches() {}

    /**
     * The branch table of every method of {@code model} ({@code methodCount} = |V|).
     *
     * @throws IllegalArgumentException if a CFG names a method id outside V, appears twice, or has
     *     an edge or branch block outside its blocks
     */
    public static ArrayBranchTable table(ProgramModel model) {
        int methods = model.getMethods().size();
        ArrayBranchTable.Builder builder = ArrayBranchTable.builder(methods);
        Set<Integer> seen = new HashSet<>();
        for (MethodCfg cfg : model.getCfgs()) {
            int m = cfg.getMethodId();
            if (m < 0 || m >= methods || !seen.add(m)) {
                throw new IllegalArgumentException(
                        "CFG of method id " + m + ": outside [0, " + methods + ") or repeated");
            }
            int blocks = cfg.getBlocks().size();
            int[] degree = normalOutDegrees(m, cfg.getEdges(), blocks);
            for (int block : cfg.getBranchBlocks()) {
                if (block < 0 || block >= blocks) {
                    throw new IllegalArgumentException(
                            "CFG of method " + m + ": branch block " + block + " is not a block");
                }
                int d = degree[block];
                if (d >= 2 && d <= BranchTable.MAX_DEGREE) {
                    builder.branch(m, block, d);
                }
            }
        }
        return builder.build();
    }

    /** Whether the model carries CFGs at all (models of schema v1 do not). */
    public static boolean hasCfgs(ProgramModel model) {
        return !model.getCfgs().isEmpty();
    }

    private static int[] normalOutDegrees(int method, List<CfgEdge> edges, int blocks) {
        int[] degree = new int[blocks];
        for (CfgEdge edge : edges) {
            if (edge.getFrom() < 0 || edge.getFrom() >= blocks) {
                throw new IllegalArgumentException(
                        "CFG of method " + method + ": edge from missing block " + edge.getFrom());
            }
            if (edge.getKind() != CfgEdgeKind.EXCEPTION) {
                degree[edge.getFrom()]++;
            }
        }
        return degree;
    }
}
