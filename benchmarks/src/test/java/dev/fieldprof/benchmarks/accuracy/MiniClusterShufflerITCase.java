package dev.fieldprof.benchmarks.accuracy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.benchmarks.accuracy.CentralPrivacyComparison.Mode;
import dev.fieldprof.client.transport.kafka.SealedReports;
import dev.fieldprof.estimation.ConstraintGraph;
import dev.fieldprof.estimation.evaluation.RecordedWorkload;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.runtime.EmbeddedFlink;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.SealedReport;
import dev.fieldprof.schemas.ShuffledBatch;
import dev.fieldprof.sealing.AnalystKeys;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The comparison's shuffled mode through the production ShufflerJob on an embedded MiniCluster: the
 * job releases one batch of exactly the fleet, its payloads are the devices' sealed payloads (each
 * once), and the analyst's sum of the opened batch equals the devices' sum before sealing.
 */
class MiniClusterShufflerITCase {
    private static final RecordCodec<SealedReport> SEALED = RecordCodec.of(SealedReport.class);
    private static final RecordCodec<ShuffledBatch> BATCHES = RecordCodec.of(ShuffledBatch.class);
    private static final long[][] RECORDED = {
        {5, 0, 1, 0, 4}, {0, 2, 2, 2, 2}, {1, 1, 1, 1, 6},
    };

    private static EmbeddedFlink flink;

    @TempDir Path dir;

    @BeforeAll
    static void startFlink() throws Exception {
        flink = EmbeddedFlink.builder().taskSlots(2).start();
    }

    @AfterAll
    static void stopFlink() throws Exception {
        if (flink != null) {
            flink.close();
        }
    }

    private static CentralPrivacyComparison comparison() {
        ConstraintGraph graph = new ConstraintGraph(5, new int[] {0}, new int[] {1});
        RecordedWorkload workload = new RecordedWorkload("tiny:1", graph, List.of(RECORDED));
        return new CentralPrivacyComparison(workload, RECORDED.length, 1e-6, 0.25, 11);
    }

    private CentralPrivacyComparison.AnalystSide analyst(AnalystKeys keys) throws Exception {
        Path keyset = dir.resolve("public.json");
        Files.writeString(keyset, keys.publicKeysetJson(), StandardCharsets.UTF_8);
        return new CentralPrivacyComparison.AnalystSide(
                keys.opener(), new SealedReports(CentralPrivacyComparison.CONFIG_ID, keyset));
    }

    @Test
    void estimatorSeesExactlyTheBatchTheShufflerReleased() throws Exception {
        AnalystKeys keys = AnalystKeys.generate();
        CentralPrivacyComparison.AnalystSide analyst = analyst(keys);
        CentralPrivacyComparison comparison = comparison();
        CentralPrivacyComparison.Sent sent =
                comparison.seal(
                        comparison.fleet(60, 11), 2.0, analyst.sealer(), new SeededRandomSource(5));
        MiniClusterShuffler shuffler = new MiniClusterShuffler(flink, 2);

        List<EncodedRecord> parts = shuffler.shuffle(sent.records(), 60);

        assertThat(shuffler.deadLetters()).isZero();
        List<String> sentPayloads = new ArrayList<>();
        for (RawRecord record : sent.records()) {
            sentPayloads.add(text(SEALED.decode(record.value).getSealed()));
        }
        List<String> releasedPayloads = new ArrayList<>();
        for (EncodedRecord part : parts) {
            ShuffledBatch batch = BATCHES.decode(part.value);
            assertThat(batch.getBatchSize()).isEqualTo(60);
            assertThat(batch.getMinBatchSize()).isEqualTo(60);
            for (ByteBuffer payload : batch.getSealed()) {
                releasedPayloads.add(text(payload));
            }
        }
        assertThat(releasedPayloads).containsExactlyInAnyOrderElementsOf(sentPayloads);
        CentralPrivacyComparison.Opened opened =
                CentralPrivacyComparison.open(parts, keys.opener(), 5);
        assertThat(opened.rejected()).isZero();
        assertThat(opened.batchSizes()).containsExactly(60);
        assertThat(opened.sum()).isEqualTo(sent.sum());
    }

    @Test
    void runGivesEveryModeAtEachCentralEpsilon() throws Exception {
        AnalystKeys keys = AnalystKeys.generate();
        List<CentralPrivacyComparison.Row> rows =
                comparison()
                        .run(
                                40,
                                new double[] {1, Math.log(9)},
                                analyst(keys),
                                new MiniClusterShuffler(flink, 1));
        assertThat(rows)
                .extracting(CentralPrivacyComparison.Row::mode)
                .containsExactly(
                        Mode.EPSILON_T,
                        Mode.USER_LEVEL,
                        Mode.SHUFFLED,
                        Mode.EPSILON_T,
                        Mode.USER_LEVEL,
                        Mode.SHUFFLED);
        for (CentralPrivacyComparison.Row row : rows) {
            if (row.mode() == Mode.SHUFFLED) {
                assertThat(row.batchSize()).isEqualTo(40);
                assertThat(row.epsilon0())
                        .isEqualTo(
                                CentralPrivacyComparison.epsilon0(
                                        Mode.SHUFFLED, row.targetEpsilon(), 40, 1e-6));
                assertThat(row.centralEpsilon()).isLessThanOrEqualTo(row.targetEpsilon());
            } else {
                assertThat(row.epsilon0()).isEqualTo(row.targetEpsilon());
                assertThat(row.delta()).isZero();
            }
            assertThat(row.relativeErrorProjected()).isBetween(0.0, 2.0);
        }
    }

    private static String text(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }
}
