package dev.fieldprof.jobs.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PathJobOptionsTest {
    @Test
    void parsesDefaultsAndBranchFiles(@TempDir Path dir) throws Exception {
        Path file =
                Files.writeString(dir.resolve("b.txt"), "fieldprof-branches 1\nmethods 2\n1 0:2\n");
        PathJobOptions o =
                PathJobOptions.parse("--bootstrap", "k:9092", "--branches", "app:1=" + file);
        assertThat(o.window()).isEqualTo(Duration.ofMinutes(1));
        assertThat(o.processingTime()).isFalse();
        assertThat(o.keepVersions()).isEqualTo(4);
        assertThat(o.modelsTopic()).isEqualTo("fieldprof.models.edges");
        assertThat(o.reportsTopic()).isEqualTo("fieldprof.reports.paths");
        assertThat(o.branches()).containsOnlyKeys("app:1");
        assertThat(o.toMap().get("branches")).isEqualTo("app:1");
        assertThat(o.programsTopic()).isEqualTo("fieldprof.programs");
        assertThat(o.shards()).isEqualTo(4);
        assertThat(o.maxWaiting()).isEqualTo(10000);
        assertThat(o.stateBackend()).isEqualTo("cluster");
        assertThat(
                        PathJobOptions.parse("--bootstrap", "k:9092", "--state-backend", "rocksdb")
                                .stateBackend())
                .isEqualTo("rocksdb");
    }

    @Test
    void branchFilesAreOptionalOverrides() {
        PathJobOptions o = PathJobOptions.parse("--bootstrap", "k:9092");
        assertThat(o.branches()).isEmpty();
        assertThat(o.toMap().get("branches")).isEqualTo("");
        assertThat(o.toMap().get("programs-topic")).isEqualTo("fieldprof.programs");
    }

    @Test
    void namesTheBadOption(@TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.txt"), "nonsense\n");
        assertThatThrownBy(() -> PathJobOptions.parse("--window", "1 min"))
                .hasMessage("missing required option(s): --bootstrap");
        assertThatThrownBy(
                        () ->
                                PathJobOptions.parse(
                                        "--bootstrap", "k", "--branches", "app:1=" + bad))
                .hasMessageStartingWith("--branches of app:1: not a branch description");
        Path good = Files.writeString(dir.resolve("good.txt"), "fieldprof-branches 1\nmethods 1\n");
        assertThatThrownBy(
                        () ->
                                PathJobOptions.parse(
                                        "--bootstrap",
                                        "k",
                                        "--branches",
                                        "a=" + good,
                                        "--time",
                                        "wall"))
                .hasMessage("--time must be event or processing");
        assertThatThrownBy(() -> PathJobOptions.parse("--windows", "1 s"))
                .hasMessageStartingWith("unknown option --windows; known: --bootstrap,");
        assertThatThrownBy(() -> PathJobOptions.parse("--bootstrap", "k", "--shards", "0"))
                .hasMessage("--shards must be in [1, 4096]");
        assertThatThrownBy(
                        () -> PathJobOptions.parse("--bootstrap", "k", "--state-backend", "disk"))
                .hasMessageStartingWith("--state-backend must be one of ");
    }

    @Test
    void envelopeAndProgramBranchesAreFlinkPojos() {
        assertThat(TypeInformation.of(PathReportEnvelope.class)).isInstanceOf(PojoTypeInfo.class);
        assertThat(TypeInformation.of(PathSideInput.class)).isInstanceOf(PojoTypeInfo.class);
    }
}
