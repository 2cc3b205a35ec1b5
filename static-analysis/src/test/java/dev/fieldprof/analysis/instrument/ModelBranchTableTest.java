package dev.fieldprof.bytecode.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.AnalysisResult;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.analysis.World;
import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.paths.ProgramModelBranches;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The branch table the PathModelJob derives from a published program model (client-sdk {@link
 * ProgramModelBranches}) is, method for method, the description the path instrumenter derives while
 * it rewrites the same jar: on gson, analysed by the real analyzer and sent through the record
 * codec as the programs topic carries it.
 */
class ModelBranchTableTest {
    @TempDir Path work;

    @Test
    void programModelTableEqualsInstrumenterDescriptionOnGson() throws Exception {
        Path jar =
                Path.of(
                        Class.forName("com.google.gson.Gson")
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                                .toURI());
        AnalysisResult analysis =
                ProgramAnalyzer.analyze(AnalysisRequest.of(jar, "gson:2").withWorld(World.LIBRARY));
        RecordCodec<ProgramModel> codec = RecordCodec.of(ProgramModel.class);
        ProgramModel model = codec.decode(codec.encode(analysis.model()));
        Map<String, Integer> ids = new HashMap<>();
        for (MethodInfo m : model.getMethods()) {
            ids.put(m.getSignature().toString(), m.getId());
        }

        PathProbeInstrumenter.Result instrumented =
                new PathProbeInstrumenter(ids)
                        .instrumentJar(jar, work.resolve("gson-paths.jar"), ids.size());
        ArrayBranchTable table = ProgramModelBranches.table(model);

        assertThat(instrumented.methodsSkipped()).isEmpty();
        int methods = model.getMethods().size();
        for (int m = 0; m < methods; m++) {
            int[] blocks = table.branchBlocks(m);
            int[] degrees = new int[blocks.length];
            for (int i = 0; i < blocks.length; i++) {
                degrees[i] = table.outDegree(m, blocks[i]);
            }
            assertThat(blocks)
                    .as("branch blocks of method %d", m)
                    .containsExactly(instrumented.branches().branchBlocks(m));
            assertThat(degrees)
                    .as("out-degrees of method %d", m)
                    .containsExactly(instrumented.branches().outDegrees(m));
        }
        String fromModel = BranchTableText.toText(table);
        assertThat(fromModel).isEqualTo(instrumented.branches().toText());
        System.out.printf(
                "gson: %d methods, %d branch nodes, tables equal%n",
                methods, instrumented.branches().branchNodeCount());
    }
}
