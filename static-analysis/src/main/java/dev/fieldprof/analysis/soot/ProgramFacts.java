package dev.fieldprof.analysis.soot;

import dev.fieldprof.analysis.phases.Phase;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The plain, Soot-free result of loading a program with Soot: facts about every application method
 * with a body, methods the JVM's serialization calls, what could not be analysed, and what each
 * phase cost.
 *
 * @param methods facts per application method with a body, by signature
 * @param serializationConstructors no-argument constructors that Java serialization invokes (first
 *     non-serializable superclass of a serializable class)
 * @param skipped what could not be analysed (class or method name → reason)
 * @param missingClasses classes referenced but found neither in the jar nor on the classpath
 * @param phases what each of Soot's phases cost (load, bodies, facts)
 */
public record ProgramFacts(
        Map<String, MethodFacts> methods,
        Set<String> serializationConstructors,
        Map<String, String> skipped,
        Set<String> missingClasses,
        List<Phase> phases) {

    public ProgramFacts {
        methods = Map.copyOf(methods);
        serializationConstructors = Set.copyOf(serializationConstructors);
        skipped = Map.copyOf(skipped);
        missingClasses = Set.copyOf(missingClasses);
        phases = List.copyOf(phases);
    }

    /** Signatures of the analysed methods. */
    public List<String> signatures() {
        return methods.keySet().stream().sorted().toList();
    }
}
