package dev.fieldprof.benchmarks.analysis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints |V|, Jimple statements, pairs, the order-pair analysis' seconds per 100K statements,
 * analyze wall time and instrumentation classes per second for real jars. Without arguments it
 * measures the commons-lang3, gson and guava jars on this module's classpath (Soot depends on
 * them); arguments {@code name=path.jar} measure other jars.
 */
public final class AnalysisBenchmarks {

    private AnalysisBenchmarks() {}

    public static void main(String[] args) throws Exception {
        List<String> jars = new ArrayList<>(List.of(args));
        if (jars.isEmpty()) {
            jars.add("commons-lang3=" + jarOf("org.apache.commons.lang3.StringUtils"));
            jars.add("gson=" + jarOf("com.google.gson.Gson"));
            jars.add("guava=" + jarOf("com.google.common.collect.ImmutableList"));
        }
        AnalysisBenchmark.print(System.out, jars.toArray(String[]::new));
    }

    private static Path jarOf(String className) throws Exception {
        return Path.of(
                Class.forName(className, false, AnalysisBenchmarks.class.getClassLoader())
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI());
    }
}
