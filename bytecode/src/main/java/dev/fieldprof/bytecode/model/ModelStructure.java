package dev.fieldprof.bytecode.model;

import dev.fieldprof.bytecode.CallGraph;
import dev.fieldprof.bytecode.cfg.BytecodeCfg;
import dev.fieldprof.schemas.AnalysisWorld;
import dev.fieldprof.schemas.CallEdges;
import dev.fieldprof.schemas.CfgBlock;
import dev.fieldprof.schemas.CfgEdge;
import dev.fieldprof.schemas.CfgEdgeKind;
import dev.fieldprof.schemas.MethodCfg;
import dev.fieldprof.schemas.ProgramModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Copies the structure an analysis found (world, call graph, call chains, CFGs, unknown callers,
 * skipped parts) into the program model, so the jobs and devices that read the model see the same
 * method, block and edge ids as the instrumenter.
 */
public final class ModelStructure {
    private ModelStructure() {}

    /** A copy of {@code model} carrying the structure; ids are the model's method ids. */
    public static ProgramModel attach(
            ProgramModel model,
            boolean library,
            CallGraph callGraph,
            List<int[]> callChains,
            List<BytecodeCfg> cfgs,
            Map<String, String> unknownCallers,
            Map<String, String> skipped) {
        if (cfgs.size() != model.getMethods().size()) {
            throw new IllegalArgumentException(
                    "one CFG per method expected: "
                            + cfgs.size()
                            + " CFGs for "
                            + model.getMethods().size()
                            + " methods");
        }
        List<CallEdges> edges = new ArrayList<>();
        for (int caller = 0; caller < callGraph.size(); caller++) {
            int[] callees = callGraph.callees(caller).clone();
            if (callees.length > 0) {
                Arrays.sort(callees);
                edges.add(new CallEdges(caller, boxed(callees)));
            }
        }
        List<List<Integer>> chains = new ArrayList<>(callChains.size());
        for (int[] chain : callChains) {
            chains.add(boxed(chain));
        }
        List<MethodCfg> methodCfgs = new ArrayList<>(cfgs.size());
        for (int id = 0; id < cfgs.size(); id++) {
            methodCfgs.add(toRecord(id, cfgs.get(id)));
        }
        return ProgramModel.newBuilder(model)
                .setWorld(library ? AnalysisWorld.LIBRARY : AnalysisWorld.APPLICATION)
                .setCallGraph(edges)
                .setCallChains(chains)
                .setCfgs(methodCfgs)
                .setUnknownCallers(new TreeMap<>(unknownCallers))
                .setSkipped(new TreeMap<>(skipped))
                .build();
    }

    private static MethodCfg toRecord(int methodId, BytecodeCfg cfg) {
        List<CfgBlock> blocks = new ArrayList<>(cfg.blocks().size());
        for (BytecodeCfg.Block block : cfg.blocks()) {
            blocks.add(
                    new CfgBlock(
                            block.firstInstruction(),
                            block.lastInstruction(),
                            block.opcodeCount()));
        }
        List<CfgEdge> edges = new ArrayList<>(cfg.edges().size());
        for (BytecodeCfg.Edge edge : cfg.edges()) {
            edges.add(
                    new CfgEdge(
                            edge.from(),
                            edge.to(),
                            CfgEdgeKind.valueOf(edge.kind().name()),
                            edge.label()));
        }
        return new MethodCfg(
                methodId,
                blocks,
                edges,
                new ArrayList<>(cfg.branchBlocks()),
                new ArrayList<>(cfg.backEdges()),
                new ArrayList<>(cfg.exitBlocks()));
    }

    private static List<Integer> boxed(int[] values) {
        List<Integer> list = new ArrayList<>(values.length);
        for (int value : values) {
            list.add(value);
        }
        return list;
    }
}
