package dev.fieldprof.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Properties;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

class KafkaEndOffsetsTest {

    @Test
    void oneObserverPerTopicAndClientSettingsThatEndsWithItsLastUser() throws Exception {
        Properties client = new Properties();
        client.put("bootstrap.servers", "127.0.0.1:1"); // nothing listens: nothing is observed
        int before = KafkaEndOffsets.running();
        // What a source carries to its tasks: serialized with the job.
        EndOffsets.Factory factory =
                InstantiationUtil.clone(KafkaEndOffsets.of(client, "reports", Duration.ZERO));

        EndOffsets first = factory.open();
        EndOffsets second = KafkaEndOffsets.of(client, "reports", Duration.ofSeconds(30)).open();
        EndOffsets other = KafkaEndOffsets.of(client, "programs", Duration.ofSeconds(1)).open();
        assertThat(KafkaEndOffsets.running()).isEqualTo(before + 2);
        assertThat(first.latest()).as("an observation of an unreachable broker").isNull();

        first.close();
        first.close(); // twice: still one user less
        assertThat(KafkaEndOffsets.running()).isEqualTo(before + 2);
        second.close();
        assertThat(KafkaEndOffsets.running()).isEqualTo(before + 1);
        other.close();
        assertThat(KafkaEndOffsets.running()).isEqualTo(before);
    }
}
