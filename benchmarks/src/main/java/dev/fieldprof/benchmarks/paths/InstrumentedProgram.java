package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.cfg.BytecodeCfg;
import dev.fieldprof.bytecode.instrument.PathProbeInstrumenter;
import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.bytecode.model.MethodInventory;
import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.BranchTableText;
import java.nio.file.Path;
import java.util.Map;

/**
 * A library jar with path probes in every method of its packages, as the path benchmarks measure
 * it: the original and instrumented jars, the method count, the branch table the tracer codes with
 * and the CFGs the baselines run on. Instrumenting is deterministic, so every JVM of a benchmark
 * run that instruments the same jar gets the same method ids and branch table.
 */
record InstrumentedProgram(
        LibraryProgram program,
        Path originalJar,
        Path instrumentedJar,
        int methods,
        int branchNodes,
        ArrayBranchTable table,
        Map<Integer, BytecodeCfg> cfgs) {

    /** Instruments {@code p}'s jar into {@code work} (takes about a second). */
    static InstrumentedProgram of(LibraryProgram p, Path work) throws Exception {
        Path jar = p.jar();
        Map<String, Integer> ids =
                MethodInventory.of(JarContents.read(jar), AppPackages.parse(p.packages())).ids();
        PathProbeInstrumenter instrumenter = new PathProbeInstrumenter(ids);
        Path instrumented = work.resolve(p.name() + "-paths.jar");
        PathProbeInstrumenter.Result result =
                instrumenter.instrumentJar(jar, instrumented, ids.size());
        return new InstrumentedProgram(
                p,
                jar,
                instrumented,
                ids.size(),
                result.branches().branchNodeCount(),
                BranchTableText.parse(result.branches().toText()),
                instrumenter.cfgs());
    }
}
