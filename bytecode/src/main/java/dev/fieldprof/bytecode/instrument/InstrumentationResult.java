package dev.fieldprof.bytecode.instrument;

import java.util.List;

/**
 * What one instrumentation run did: classes rewritten and copied, probes inserted, model methods
 * not found in the jar, and the wall time.
 */
public record InstrumentationResult(
        int classesInstrumented,
        int classesCopied,
        int probesInserted,
        int resourcesCopied,
        List<String> modelMethodsNotFound,
        List<String> strippedSignatureEntries,
        double seconds) {

    public InstrumentationResult {
        modelMethodsNotFound = List.copyOf(modelMethodsNotFound);
        strippedSignatureEntries = List.copyOf(strippedSignatureEntries);
    }

    /** Instrumented classes per second of wall time. */
    public double classesPerSecond() {
        return seconds <= 0 ? 0 : classesInstrumented / seconds;
    }
}
