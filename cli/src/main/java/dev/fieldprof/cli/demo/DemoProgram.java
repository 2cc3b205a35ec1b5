package dev.fieldprof.cli.demo;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.AnalysisResult;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.bytecode.instrument.InstrumentationResult;
import dev.fieldprof.bytecode.instrument.JarInstrumenter;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.schemas.ProgramModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/**
 * The demo's device program: the sample app analyzed (program model) and instrumented by fieldprof
 * itself, rebuilt only when the sample jar is newer than what was built from it.
 *
 * @param model the program model the jobs receive
 * @param instrumentedJar the jar the simulated devices run
 * @param rebuilt whether this run analyzed and instrumented (false: reused)
 * @param seconds time spent analyzing and instrumenting in this run
 */
public record DemoProgram(
        ProgramModel model, Path instrumentedJar, boolean rebuilt, double seconds) {

    /** The sample app's version string in the demo. */
    public static final String APP_VERSION = "notes:1.0";

    /** Analyzes and instruments {@code programJar} into {@code workDir}, or reuses the result. */
    public static DemoProgram prepare(Path programJar, Path workDir) {
        if (!Files.isRegularFile(programJar)) {
            throw new IllegalArgumentException(
                    "sample program jar not found: "
                            + programJar
                            + " (build it with: mvn -pl samples/demo-app package)");
        }
        Path modelFile = workDir.resolve("notes.model");
        Path instrumented = workDir.resolve("notes-instrumented.jar");
        long start = System.nanoTime();
        try {
            Files.createDirectories(workDir);
            Path analyzer = analyzerLocation();
            if (isFresh(modelFile, programJar)
                    && isFresh(instrumented, programJar)
                    && isFresh(modelFile, analyzer)) {
                return new DemoProgram(ProgramModels.read(modelFile), instrumented, false, 0);
            }
            AnalysisResult analysis =
                    ProgramAnalyzer.analyze(AnalysisRequest.of(programJar, APP_VERSION));
            ProgramModel model = analysis.model();
            InstrumentationResult result =
                    new JarInstrumenter(false).instrument(programJar, model, instrumented);
            if (!result.modelMethodsNotFound().isEmpty()) {
                throw new IllegalStateException(
                        "instrumentation missed model methods " + result.modelMethodsNotFound());
            }
            ProgramModels.write(model, modelFile);
            return new DemoProgram(model, instrumented, true, (System.nanoTime() - start) / 1e9);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the demo program in " + workDir, e);
        }
    }

    /** The static-analysis jar (or classes folder): a newer analyzer rebuilds the demo program. */
    private static Path analyzerLocation() {
        try {
            return Path.of(
                    ProgramAnalyzer.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI());
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return Path.of(".");
        }
    }

    private static boolean isFresh(Path built, Path source) throws IOException {
        if (!Files.isRegularFile(built)) {
            return false;
        }
        FileTime builtTime = Files.getLastModifiedTime(built);
        return builtTime.compareTo(Files.getLastModifiedTime(source)) > 0;
    }
}
