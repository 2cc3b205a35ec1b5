package dev.fieldprof.benchmarks.paths;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;

/**
 * A measured library: its name, a class that locates its jar on the benchmarks' class path, its
 * application packages, the workload driver that exercises it and the driver's rounds per run.
 * Shared by the path benchmarks and the probe-plan overhead benchmark so both run the same work.
 */
public record LibraryProgram(
        String name, String probeClass, String packages, Class<?> workload, int rounds) {

    /** commons-lang3, gson and guava with their workloads, rounds scaled by {@code scale}. */
    public static List<LibraryProgram> all(double scale) {
        return List.of(
                new LibraryProgram(
                        "commons-lang3",
                        "org.apache.commons.lang3.StringUtils",
                        "org.apache.commons.lang3",
                        Lang3Workload.class,
                        (int) (4000 * scale)),
                new LibraryProgram(
                        "gson",
                        "com.google.gson.Gson",
                        "com.google.gson",
                        GsonWorkload.class,
                        (int) (1500 * scale)),
                new LibraryProgram(
                        "guava",
                        "com.google.common.collect.ImmutableList",
                        "com.google.common",
                        GuavaWorkload.class,
                        (int) (3000 * scale)));
    }

    /** The library's jar on the benchmarks' class path. */
    public Path jar() throws Exception {
        return Path.of(
                Class.forName(probeClass, false, LibraryProgram.class.getClassLoader())
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI());
    }

    /**
     * The workload's {@code static long run(long seed, int rounds)} as loaded by {@code loader} (a
     * {@link WorkloadLoader}, so that it links to that loader's copy of the library).
     */
    public Method runMethod(ClassLoader loader) throws Exception {
        return Class.forName(workload.getName(), true, loader)
                .getMethod("run", long.class, int.class);
    }
}
