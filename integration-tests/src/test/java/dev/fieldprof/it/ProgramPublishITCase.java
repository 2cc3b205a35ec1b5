package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.programs.ProgramPublisher;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.PairRule;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Program models of real size (several MB, far above Kafka's 1 MB default) reach the jobs whole.
 */
class ProgramPublishITCase {
    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME = FieldprofRuntimeExtension.builder().build();

    @Test
    void publishesAModelLargerThanKafkasDefaultRecordLimit() {
        SplittableRandom random = new SplittableRandom(42);
        int methods = 20_000;
        List<MethodInfo> v = new ArrayList<>();
        for (int i = 0; i < methods; i++) {
            v.add(new MethodInfo(i, String.format("<p.C%05d: void m(int,java.lang.String)>", i)));
        }
        List<OrderPair> pairs = new ArrayList<>();
        for (int i = 0; i < 400_000; i++) {
            pairs.add(
                    new OrderPair(
                            random.nextInt(methods), random.nextInt(methods), PairRule.OTHER));
        }
        ProgramModel model =
                ProgramModel.newBuilder()
                        .setAppVersion("big:1")
                        .setCreatedAtMillis(Instant.ofEpochMilli(1_000))
                        .setMethods(v)
                        .setPairs(pairs)
                        .setPrivacyConfigs(
                                List.of(
                                        new PrivacyConfig(
                                                "default",
                                                2.0,
                                                1,
                                                10,
                                                dev.fieldprof.schemas.PrivacyMode.EPSILON_T,
                                                null)))
                        .build();
        RecordCodec<ProgramModel> codec = RecordCodec.of(ProgramModel.class);
        assertThat(codec.encode(model).length).isGreaterThan(2 << 20);

        ProgramPublisher.publish(
                RUNTIME.bootstrapServers(), Topics.PROGRAMS, model, Duration.ofSeconds(60));

        List<byte[]> read = RUNTIME.drain(Topics.PROGRAMS, new ByteArrayDeserializer());
        assertThat(read).hasSize(1);
        assertThat(codec.decode(read.get(0))).isEqualTo(model);
    }
}
