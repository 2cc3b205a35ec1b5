package dev.fieldprof.jobs.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.jobs.testing.CollectingSink;
import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.paths.EdgeCounter;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.EdgeModelRecords;
import dev.fieldprof.paths.ModelUpdater;
import dev.fieldprof.paths.PathEncoder;
import dev.fieldprof.schemas.CfgBlock;
import dev.fieldprof.schemas.CfgEdge;
import dev.fieldprof.schemas.CfgEdgeKind;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.MethodCfg;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The whole PathModelJob on a MiniCluster with a bounded source and collecting sinks. */
class PathModelJobITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    static final String APP = "paths:1";

    /** The job's default transactional-id prefix: the writer of every model it publishes. */
    static final String WRITER = "fieldprof-path-model";

    static final String BRANCHES = "fieldprof-branches 1\nmethods 3\n0 0:2 4:3\n1 1:2\n";
    static final ArrayBranchTable TABLE = BranchTableText.parse(BRANCHES);
    static final RecordCodec<PathReport> REPORTS = RecordCodec.of(PathReport.class);
    static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);
    static final RecordCodec<dev.fieldprof.schemas.EdgeModel> MODELS =
            RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class);

    static final RecordCodec<ProgramModel> PROGRAMS = RecordCodec.of(ProgramModel.class);

    private long offset;
    private long programOffset = 100;

    /**
     * A program model of {@link #APP} whose CFGs give {@link #BRANCHES}: method 0 branches at block
     * 0 (two edges and an exception edge, which no probe codes) and at block 4 (a switch with three
     * targets); method 1 at block 1; method 2 is straight-line.
     */
    static ProgramModel programModel(String app) {
        List<CfgEdge> m0 =
                List.of(
                        new CfgEdge(0, 1, CfgEdgeKind.BRANCH_TAKEN, null),
                        new CfgEdge(0, 2, CfgEdgeKind.BRANCH_NOT_TAKEN, null),
                        new CfgEdge(0, 5, CfgEdgeKind.EXCEPTION, "java/lang/Exception"),
                        new CfgEdge(1, 4, CfgEdgeKind.JUMP, null),
                        new CfgEdge(2, 4, CfgEdgeKind.FALLTHROUGH, null),
                        new CfgEdge(4, 1, CfgEdgeKind.SWITCH_CASE, "1"),
                        new CfgEdge(4, 3, CfgEdgeKind.SWITCH_CASE, "2"),
                        new CfgEdge(4, 5, CfgEdgeKind.SWITCH_DEFAULT, null));
        List<CfgEdge> m1 =
                List.of(
                        new CfgEdge(0, 1, CfgEdgeKind.FALLTHROUGH, null),
                        new CfgEdge(1, 2, CfgEdgeKind.BRANCH_TAKEN, null),
                        new CfgEdge(1, 3, CfgEdgeKind.BRANCH_NOT_TAKEN, null));
        return ProgramModel.newBuilder()
                .setAppVersion(app)
                .setCreatedAtMillis(Instant.EPOCH)
                .setMethods(
                        List.of(
                                new MethodInfo(0, "<p.A: void a()>"),
                                new MethodInfo(1, "<p.A: void b()>"),
                                new MethodInfo(2, "<p.A: void c()>")))
                .setPairs(List.of())
                .setPrivacyConfigs(List.of())
                .setCfgs(
                        List.of(
                                new MethodCfg(
                                        0, blocks(6), m0, List.of(0, 4), List.of(), List.of()),
                                new MethodCfg(1, blocks(4), m1, List.of(1), List.of(), List.of()),
                                new MethodCfg(
                                        2, blocks(1), List.of(), List.of(), List.of(), List.of())))
                .build();
    }

    static List<CfgBlock> blocks(int n) {
        List<CfgBlock> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new CfgBlock(i, i, 1));
        }
        return out;
    }

    RawRecord program(byte[] value, long ts) {
        return new RawRecord(
                "fieldprof.programs",
                0,
                programOffset++,
                ts,
                "paths:1".getBytes(StandardCharsets.UTF_8),
                value);
    }

    /** One invocation-rich report coded with {@code model}; seeded, skewed branches. */
    static byte[] codedRun(EdgeModel model, long seed) {
        Random random = new Random(seed);
        PathEncoder enc = new PathEncoder(model);
        enc.enterMethod(0);
        for (int i = 0; i < 200; i++) {
            enc.branch(0, random.nextInt(10) < 9 ? 0 : 1);
            enc.branch(4, random.nextInt(10) < 7 ? 2 : random.nextInt(2));
            enc.enterMethod(1);
            enc.branch(1, random.nextInt(10) < 8 ? 1 : 0);
            if (random.nextInt(20) == 0) {
                enc.exitExceptionally(1);
            } else {
                enc.exitMethod(1);
            }
        }
        enc.exitMethod(0);
        return enc.finishReport();
    }

    RawRecord report(String id, String app, long version, long events, byte[] coded, long ts) {
        PathReport r =
                PathReport.newBuilder()
                        .setReportId(id)
                        .setDeviceId("device-" + id)
                        .setAppVersion(app)
                        .setVariant(0)
                        .setThread(0)
                        .setSequence(0)
                        .setModelVersion(version)
                        .setEvents(events)
                        .setCreatedAtMillis(Instant.ofEpochMilli(ts))
                        .setCoded(ByteBuffer.wrap(coded))
                        .build();
        return raw(REPORTS.encode(r), ts);
    }

    RawRecord raw(byte[] value, long ts) {
        return new RawRecord(
                "fieldprof.reports.paths",
                0,
                offset++,
                ts,
                "dev".getBytes(StandardCharsets.UTF_8),
                value);
    }

    static long events(byte[] coded) throws Exception {
        return dev.fieldprof.paths.PathDecoder.readHeader(coded).eventCount();
    }

    @Test
    void learnsModelVersionsPerWindowFromTheProgramModelsCfgsAndDeadLettersWhatItCannotDecode()
            throws Exception {
        EdgeModel v0 = EdgeModel.uniform(TABLE);
        // An earlier run of this job published v1 (the feed holds it, the job has no state):
        // devices code with it, and the job continues after it.
        EdgeModel v1 =
                EdgeModel.builder(new ModelUpdater(64).next(v0, new EdgeCounter(TABLE)))
                        .writer(WRITER)
                        .build();
        // What the job must compute, with the Flink-free aggregator.
        PathModelAggregator expected =
                new PathModelAggregator(v0, 4, new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL));
        expected.adopt(v1);
        List<RawRecord> records = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            byte[] coded = codedRun(v0, i);
            expected.add(coded);
            records.add(report("w1-" + i, APP, 0, events(coded), coded, 1_000 + i));
        }
        records.add(raw(new byte[] {7, 7, 7}, 2_000));
        byte[] good = codedRun(v0, 42);
        records.add(report("ghost", "ghost:1", 0, events(good), good, 3_000));
        records.add(report("mismatch", APP, 1, events(good), good, 4_000));
        byte[] corrupt = good.clone();
        corrupt[corrupt.length - 1] ^= 0x5A;
        corrupt[corrupt.length - 2] ^= 0x33;
        records.add(report("corrupt", APP, 0, events(corrupt), corrupt, 5_000));
        // Path format version 2 never shipped (version 3 replaced its coding): refused.
        byte[] retired = good.clone();
        retired[0] = 2;
        records.add(report("retired", APP, 0, events(good), retired, 5_500));
        EdgeModel v2 = expected.closeWindow().orElseThrow();

        for (int i = 0; i < 2; i++) {
            byte[] coded = codedRun(v1, 10 + i);
            expected.add(coded);
            records.add(report("w2-" + i, APP, 1, events(coded), coded, 61_000 + i));
        }
        byte[] late = codedRun(v0, 20);
        expected.add(late);
        records.add(report("w2-v0", APP, 0, events(late), late, 62_000));
        byte[] future = codedRun(EdgeModel.builder(v0).version(7).build(), 21);
        records.add(report("w2-v7", APP, 7, events(future), future, 63_000));
        EdgeModel v3 = expected.closeWindow().orElseThrow();
        // (The feed's record takes program offset 100, the programs 101 and 102.)
        List<RawRecord> feed =
                List.of(
                        program(
                                MODELS.encode(EdgeModelRecords.toRecord(v1, APP, Instant.EPOCH, 0)),
                                0));

        PathJobOptions options =
                PathJobOptions.parse(
                        "--bootstrap", "unused:9092",
                        "--checkpoint-interval", "0 s",
                        "--window", "1 min",
                        "--out-of-orderness", "0 s");
        // Published long after the reports: a side input, it must not close their windows.
        List<RawRecord> programs =
                List.of(
                        program(PROGRAMS.encode(programModel(APP)), 500_000),
                        program(new byte[] {1, 2, 3}, 500_001));
        CollectingSink models = new CollectingSink();
        CollectingSink letters = new CollectingSink();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        new PathModelJob(
                        options,
                        PathJobTestIo.source(records),
                        PathJobTestIo.source(programs),
                        PathJobTestIo.source(feed),
                        models,
                        letters)
                .buildInto(env);
        env.execute(PathModelJob.NAME);

        List<dev.fieldprof.schemas.EdgeModel> published = new ArrayList<>();
        for (EncodedRecord r : models.received()) {
            assertThat(new String(r.key, StandardCharsets.UTF_8)).isEqualTo(APP);
            published.add(MODELS.decode(r.value));
        }
        assertThat(published).hasSize(2);
        assertThat(published.get(0).getVersion()).isEqualTo(2L);
        assertThat(EdgeModelRecords.fromRecord(published.get(0), TABLE)).isEqualTo(v2);
        assertThat(published.get(0).getWindowReports()).isEqualTo(3L);
        assertThat(published.get(0).getCreatedAtMillis()).isEqualTo(Instant.ofEpochMilli(60_000));
        assertThat(published.get(1).getVersion()).isEqualTo(3L);
        assertThat(EdgeModelRecords.fromRecord(published.get(1), TABLE)).isEqualTo(v3);
        assertThat(published.get(1).getWindowReports()).isEqualTo(3L);

        Map<Long, String> reasons = new TreeMap<>();
        for (EncodedRecord r : letters.received()) {
            DeadLetter letter = LETTERS.decode(r.value);
            assertThat(letter.getJob().toString()).isEqualTo(PathDeadLetters.JOB);
            reasons.put(letter.getOffset(), letter.getReasonCode() + " " + letter.getReason());
        }
        assertThat(reasons.keySet()).containsExactly(3L, 4L, 5L, 6L, 7L, 11L, 102L);
        assertThat(reasons.get(3L)).startsWith("UNDECODABLE ");
        assertThat(reasons.get(4L))
                .isEqualTo(
                        "UNKNOWN_APP_VERSION no branch table for app version ghost:1 before the"
                                + " input ended: no program model with CFGs and no --branches");
        assertThat(reasons.get(5L)).startsWith("INVALID record names model 1 and");
        assertThat(reasons.get(6L))
                .startsWith("UNDECODABLE path report corrupt does not decode with edge model 0: ");
        assertThat(reasons.get(7L))
                .isEqualTo(
                        "UNDECODABLE coded path: unsupported path format version 2; this decoder"
                                + " reads versions 1, 3 and 4");
        assertThat(reasons.get(11L))
                .isEqualTo(
                        "UNKNOWN_MODEL_VERSION edge model version 7 of paths:1 did not reach the"
                                + " job before the input ended");
        assertThat(reasons.get(102L)).startsWith("UNDECODABLE ");
    }

    @Test
    void continuesFromThePublishedModelWhenStartedWithoutStateAndBranchFilesOverrideModels(
            @TempDir Path dir) throws Exception {
        Path branchFile = Files.writeString(dir.resolve("branches.txt"), BRANCHES);
        EdgeModel v0 = EdgeModel.uniform(TABLE);
        PathModelAggregator expected =
                new PathModelAggregator(v0, 4, new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL));
        expected.add(codedRun(v0, 1));
        EdgeModel v1 = expected.closeWindow().orElseThrow();
        List<RawRecord> records = new ArrayList<>();
        byte[] coded = codedRun(v1, 2);
        expected.add(coded);
        records.add(report("after-restart", APP, 1, events(coded), coded, 1_000));
        byte[] fresh = codedRun(v0, 3);
        expected.add(fresh);
        records.add(report("new-device", APP, 0, events(fresh), fresh, 2_000));
        EdgeModel v2 = expected.closeWindow().orElseThrow();

        PathJobOptions options =
                PathJobOptions.parse(
                        "--bootstrap", "unused:9092",
                        "--checkpoint-interval", "0 s",
                        "--out-of-orderness", "0 s",
                        "--branches", APP + "=" + branchFile);
        CollectingSink models = new CollectingSink();
        CollectingSink letters = new CollectingSink();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        byte[] published =
                MODELS.encode(EdgeModelRecords.toRecord(v1, APP, Instant.ofEpochMilli(5), 1));
        // The program model's CFGs say method 2 branches too: the --branches file wins.
        List<MethodCfg> cfgs = new ArrayList<>(programModel(APP).getCfgs());
        cfgs.set(
                2,
                new MethodCfg(
                        2,
                        blocks(3),
                        List.of(
                                new CfgEdge(0, 1, CfgEdgeKind.BRANCH_TAKEN, null),
                                new CfgEdge(0, 2, CfgEdgeKind.BRANCH_NOT_TAKEN, null)),
                        List.of(0),
                        List.of(),
                        List.of()));
        ProgramModel other = ProgramModel.newBuilder(programModel(APP)).setCfgs(cfgs).build();
        new PathModelJob(
                        options,
                        PathJobTestIo.source(records),
                        PathJobTestIo.source(List.of(program(PROGRAMS.encode(other), 0))),
                        PathJobTestIo.source(List.of(program(published, 0))),
                        models,
                        letters,
                        Map.of(APP, published))
                .buildInto(env);
        env.execute(PathModelJob.NAME);

        assertThat(letters.received()).isEmpty();
        assertThat(models.received()).hasSize(1);
        dev.fieldprof.schemas.EdgeModel next = MODELS.decode(models.received().get(0).value);
        assertThat(next.getVersion()).isEqualTo(2L);
        assertThat(EdgeModelRecords.fromRecord(next, TABLE))
                .isEqualTo(EdgeModel.builder(v2).writer(WRITER).build());
    }
}
