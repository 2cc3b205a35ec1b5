package dev.fieldprof.analysis.constraints;

import dev.fieldprof.analysis.soot.CallSiteFacts;
import dev.fieldprof.analysis.soot.MethodFacts;
import dev.fieldprof.analysis.soot.ProgramFacts;
import dev.fieldprof.schemas.PairRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order-pair analysis of frequency profiling (docs/references.md: Algorithm 1, Section 4.3):
 * the pairs F(left) ≤ F(right) that hold in every run. Rule 1 (lines 4-5): a call site whose only
 * target is m' and that every path from m's entry passes before m can return or throw gives F(m) ≤
 * F(m'). Rule 2 (lines 6-7): the only call site of m' in the program, outside every cycle of m's
 * body, with no unknown caller of m', gives F(m') ≤ F(m).
 */
public final class OrderPairs {

    /** One pair over method signatures. */
    public record Pair(String left, String right, PairRule rule) {}

    private OrderPairs() {}

    /** Pairs in discovery order (methods by signature, call sites by statement), no duplicates. */
    public static List<Pair> find(ProgramFacts facts, UnknownCallers unknown) {
        return find(facts, ExceptionFlow.analyze(facts), unknown, PairRules.SOUND);
    }

    /** As {@link #find(ProgramFacts, UnknownCallers)} under the given version of the rules. */
    public static List<Pair> find(
            ProgramFacts facts, ExceptionFlow flow, UnknownCallers unknown, PairRules rules) {
        boolean sound = rules == PairRules.SOUND;
        // Sites of one dispatch share one target list: count the sites per list, then each list's
        // targets once (walking every site's targets dominated large programs).
        Map<List<String>, Integer> sitesPerList = new IdentityHashMap<>();
        for (MethodFacts method : facts.methods().values()) {
            for (CallSiteFacts site : method.callSites()) {
                sitesPerList.merge(site.targets(), 1, Integer::sum);
            }
        }
        Map<String, Integer> callSitesOf = new HashMap<>();
        for (Map.Entry<List<String>, Integer> list : sitesPerList.entrySet()) {
            for (String target : list.getKey()) {
                callSitesOf.merge(target, list.getValue(), Integer::sum);
            }
        }
        Map<String, Pair> pairs = new LinkedHashMap<>();
        for (String signature : facts.signatures()) {
            MethodFacts method = facts.methods().get(signature);
            BodyGraph body = flow.body(signature);
            boolean[] onCycle = null;
            for (CallSiteFacts site : method.callSites()) {
                List<String> targets = site.targets();
                if (targets.size() == 1
                        && (!sound || (site.targetsComplete() && site.guaranteesEntry()))
                        && facts.methods().containsKey(targets.get(0))
                        && !targets.get(0).equals(signature)
                        && (sound
                                ? body.dominatesExits(site.statement())
                                : body.dominatesExplicitExits(site.statement()))) {
                    add(pairs, new Pair(signature, targets.get(0), PairRule.DOMINATING_CALL_SITE));
                }
                if (sitesPerList.get(targets) > 1) {
                    continue; // each of its targets has two call sites or more: no rule-2 pair
                }
                for (String target : targets) {
                    if (target.equals(signature)
                            || !facts.methods().containsKey(target)
                            || unknown.contains(target)
                            || callSitesOf.getOrDefault(target, 0) != 1) {
                        continue;
                    }
                    if (onCycle == null) {
                        onCycle = body.onCycle();
                    }
                    if (!onCycle[site.statement()]) {
                        add(pairs, new Pair(target, signature, PairRule.ONLY_CALL_SITE));
                    }
                }
            }
        }
        return new ArrayList<>(pairs.values());
    }

    private static void add(Map<String, Pair> pairs, Pair pair) {
        pairs.putIfAbsent(pair.left() + "\u0000" + pair.right(), pair);
    }
}
