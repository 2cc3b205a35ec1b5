package dev.fieldprof.analysis;

import dev.fieldprof.analysis.phases.Phase;
import dev.fieldprof.bytecode.CallGraph;
import dev.fieldprof.bytecode.cfg.BytecodeCfg;
import dev.fieldprof.schemas.ProgramModel;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one analysis: the ProgramModel to publish, plus the parts the schema does not
 * carry yet (call graph, call chains, CFGs) and why methods have unknown callers.
 *
 * @param model V, the pairs, the privacy configuration and the stats
 * @param callGraph call edges over method ids
 * @param callChains bounded call chains over method ids, from the call graph's roots
 * @param cfgs bytecode CFG per method id (index = id)
 * @param unknownCallers method signature → why it may be called by code the analysis cannot see
 * @param skipped class, method or classpath entry → why it was skipped
 * @param missingClasses referenced classes found neither in the jar nor on the classpath
 * @param library whether the jar was analysed as a library (open world)
 * @param phases what each phase of the analysis cost, in order, the whole run last ({@code total})
 */
public record AnalysisResult(
        ProgramModel model,
        CallGraph callGraph,
        List<int[]> callChains,
        List<BytecodeCfg> cfgs,
        Map<String, String> unknownCallers,
        Map<String, String> skipped,
        List<String> missingClasses,
        boolean library,
        List<Phase> phases) {

    public AnalysisResult {
        callChains = List.copyOf(callChains);
        cfgs = List.copyOf(cfgs);
        unknownCallers = Map.copyOf(unknownCallers);
        skipped = Map.copyOf(skipped);
        missingClasses = List.copyOf(missingClasses);
        phases = List.copyOf(phases);
    }
}
