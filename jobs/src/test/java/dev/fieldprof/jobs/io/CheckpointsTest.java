package dev.fieldprof.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

class CheckpointsTest {

    @Test
    void theOptionWinsThenTheClustersDirectoryThenOneUnderTheTemporaryDirectory() {
        StreamExecutionEnvironment plain = StreamExecutionEnvironment.getExecutionEnvironment();
        assertThat(Checkpoints.directory("s3://bucket/cp", plain, "job"))
                .isEqualTo("s3://bucket/cp");
        assertThat(Checkpoints.directory("", plain, "fieldprof-frequency-estimation"))
                .isEqualTo(
                        Path.of(
                                        System.getProperty("java.io.tmpdir"),
                                        "fieldprof-checkpoints",
                                        "fieldprof-frequency-estimation")
                                .toUri()
                                .toString());

        Configuration cluster = new Configuration();
        cluster.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, "file:///cluster/checkpoints");
        StreamExecutionEnvironment configured =
                StreamExecutionEnvironment.getExecutionEnvironment(cluster);
        assertThat(Checkpoints.directory("", configured, "job")).isNull();
    }
}
