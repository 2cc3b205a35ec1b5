package dev.fieldprof.bytecode.model;

import dev.fieldprof.schemas.CallEdges;
import dev.fieldprof.schemas.CfgEdge;
import dev.fieldprof.schemas.MethodCfg;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.ProgramModel;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks that a decoded program model is consistent before anything indexes arrays by its ids: the
 * method ids are 0..|V|-1 in list order, no signature appears twice, every pair, call edge, call
 * chain and CFG names a method of V, no method has two call-edge entries or two CFGs, and every CFG
 * edge, branch block and exit block names a block of its CFG and every back edge one of its edges.
 * A model file is written by the analysis but read from wherever the user points, so it is checked
 * like any input.
 */
public final class ProgramModelCheck {
    private ProgramModelCheck() {}

    /**
     * @throws IllegalArgumentException naming the first inconsistency, in one line
     */
    public static void check(ProgramModel model) {
        List<MethodInfo> methods = model.getMethods();
        int size = methods.size();
        Set<String> signatures = new HashSet<>();
        for (int i = 0; i < size; i++) {
            MethodInfo method = methods.get(i);
            if (method.getId() != i) {
                throw new IllegalArgumentException(
                        "method at index " + i + " has id " + method.getId() + ", expected " + i);
            }
            if (!signatures.add(method.getSignature())) {
                throw new IllegalArgumentException(
                        "method " + i + " repeats the signature of an earlier method");
            }
        }
        List<OrderPair> pairs = model.getPairs();
        for (int i = 0; i < pairs.size(); i++) {
            inV("pair " + i, pairs.get(i).getLeft(), size);
            inV("pair " + i, pairs.get(i).getRight(), size);
        }
        boolean[] hasEdges = new boolean[size];
        for (CallEdges edges : model.getCallGraph()) {
            int caller = edges.getCaller();
            inV("call graph", caller, size);
            if (hasEdges[caller]) {
                throw new IllegalArgumentException(
                        "call graph lists the callees of method " + caller + " twice");
            }
            hasEdges[caller] = true;
            for (int callee : edges.getCallees()) {
                inV("call graph entry of method " + caller, callee, size);
            }
        }
        List<List<Integer>> chains = model.getCallChains();
        for (int i = 0; i < chains.size(); i++) {
            for (int method : chains.get(i)) {
                inV("call chain " + i, method, size);
            }
        }
        boolean[] hasCfg = new boolean[size];
        for (MethodCfg cfg : model.getCfgs()) {
            int method = cfg.getMethodId();
            inV("CFG", method, size);
            if (hasCfg[method]) {
                throw new IllegalArgumentException("method " + method + " has two CFGs");
            }
            hasCfg[method] = true;
            int blocks = cfg.getBlocks().size();
            List<CfgEdge> edges = cfg.getEdges();
            for (int e = 0; e < edges.size(); e++) {
                inCfg(method, "edge " + e, edges.get(e).getFrom(), blocks);
                inCfg(method, "edge " + e, edges.get(e).getTo(), blocks);
            }
            for (int block : cfg.getBranchBlocks()) {
                inCfg(method, "branch block list", block, blocks);
            }
            for (int block : cfg.getExitBlocks()) {
                inCfg(method, "exit block list", block, blocks);
            }
            for (int edge : cfg.getBackEdges()) {
                if (edge < 0 || edge >= edges.size()) {
                    throw new IllegalArgumentException(
                            "CFG of method "
                                    + method
                                    + ": back edge list names edge "
                                    + edge
                                    + ", outside its "
                                    + edges.size()
                                    + " edges");
                }
            }
        }
    }

    private static void inV(String where, int method, int size) {
        if (method < 0 || method >= size) {
            throw new IllegalArgumentException(
                    where + " names method " + method + ", outside V (|V| = " + size + ")");
        }
    }

    private static void inCfg(int method, String where, int block, int blocks) {
        if (block < 0 || block >= blocks) {
            throw new IllegalArgumentException(
                    "CFG of method "
                            + method
                            + ": "
                            + where
                            + " names block "
                            + block
                            + ", outside its "
                            + blocks
                            + " blocks");
        }
    }
}
