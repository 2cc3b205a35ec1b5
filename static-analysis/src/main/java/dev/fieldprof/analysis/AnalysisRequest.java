package dev.fieldprof.analysis;

import dev.fieldprof.analysis.constraints.PairRules;
import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.model.ProgramModels;
import java.nio.file.Path;
import java.util.List;

/**
 * Everything {@link ProgramAnalyzer} needs: the jar, its dependencies, which classes are the
 * application, the app version and the privacy configuration written into the model.
 *
 * @param k trace length, or null for the 5·|V| of frequency profiling (docs/references.md)
 * @param maxChainDepth longest call chain kept, in methods (≥ 1)
 * @param maxChains most call chains kept in all (≥ 0)
 * @param rules the version of the order-pair rules (SOUND unless measuring the published ones)
 */
public record AnalysisRequest(
        Path jar,
        List<Path> classpath,
        AppPackages appPackages,
        World world,
        String appVersion,
        String configId,
        double epsilon,
        int t,
        Integer k,
        int maxChainDepth,
        int maxChains,
        PairRules rules) {

    public AnalysisRequest {
        classpath = List.copyOf(classpath);
        if (appVersion == null || !appVersion.contains(":")) {
            throw new IllegalArgumentException(
                    "app version must look like APP:VERSION, was " + appVersion);
        }
    }

    /** Defaults: every class of the jar, world from the manifest, ε = ln 9, t = 1, k = 5·|V|. */
    public static AnalysisRequest of(Path jar, String appVersion) {
        return new AnalysisRequest(
                jar,
                List.of(),
                AppPackages.all(),
                World.AUTO,
                appVersion,
                "default",
                ProgramModels.DEFAULT_EPSILON,
                1,
                null,
                8,
                10_000,
                PairRules.SOUND);
    }

    public AnalysisRequest withClasspath(List<Path> entries) {
        return new AnalysisRequest(
                jar,
                entries,
                appPackages,
                world,
                appVersion,
                configId,
                epsilon,
                t,
                k,
                maxChainDepth,
                maxChains,
                rules);
    }

    public AnalysisRequest withAppPackages(AppPackages packages) {
        return new AnalysisRequest(
                jar,
                classpath,
                packages,
                world,
                appVersion,
                configId,
                epsilon,
                t,
                k,
                maxChainDepth,
                maxChains,
                rules);
    }

    public AnalysisRequest withWorld(World w) {
        return new AnalysisRequest(
                jar,
                classpath,
                appPackages,
                w,
                appVersion,
                configId,
                epsilon,
                t,
                k,
                maxChainDepth,
                maxChains,
                rules);
    }

    public AnalysisRequest withRules(PairRules r) {
        return new AnalysisRequest(
                jar,
                classpath,
                appPackages,
                world,
                appVersion,
                configId,
                epsilon,
                t,
                k,
                maxChainDepth,
                maxChains,
                r);
    }

    public AnalysisRequest withPrivacy(String id, double eps, int threshold, Integer traceLength) {
        return new AnalysisRequest(
                jar,
                classpath,
                appPackages,
                world,
                appVersion,
                id,
                eps,
                threshold,
                traceLength,
                maxChainDepth,
                maxChains,
                rules);
    }
}
