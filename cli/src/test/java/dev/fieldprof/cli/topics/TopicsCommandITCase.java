package dev.fieldprof.cli.topics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.jobs.io.TopicSettings;
import dev.fieldprof.runtime.EmbeddedKafka;
import dev.fieldprof.schemas.Topics;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code fieldprof topics} on a real broker that already has a report topic created the way a
 * broker creates topics on first use (the producers' clocks), as on an existing cluster.
 */
class TopicsCommandITCase {
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafka.builder().defaultPartitions(2).start();
        kafka.createTopic(
                Topics.FREQUENCY_REPORTS, 2, Map.of("message.timestamp.type", "CreateTime"));
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void findsFixesAndCreatesTopicsAsTheJobsNeedThem() {
        String bootstrap = kafka.bootstrapServers();
        assertThat(TopicSettings.reportTopicWarning(bootstrap, Topics.FREQUENCY_REPORTS))
                .hasValueSatisfying(
                        warning ->
                                assertThat(warning)
                                        .startsWith(
                                                "report topic fieldprof.reports.frequency:"
                                                        + " message.timestamp.type is CreateTime,"
                                                        + " fieldprof needs LogAppendTime."));

        CliCapture check = new CliCapture();
        assertThat(check.run("topics", "check", "--bootstrap", bootstrap)).isEqualTo(1);
        assertThat(check.out())
                .isEqualTo(
                        String.join(
                                "\n",
                                "fieldprof.programs: missing",
                                "fieldprof.reports.frequency: max.message.bytes is 1048588,"
                                        + " fieldprof needs 1048576 (fix with --fix)",
                                "fieldprof.reports.frequency: message.timestamp.type is"
                                        + " CreateTime, fieldprof needs LogAppendTime (fix with"
                                        + " --fix)",
                                "fieldprof.reports.frequency.replay: missing",
                                "fieldprof.shuffler.input: missing",
                                "fieldprof.reports.shuffled: missing",
                                "fieldprof.reports.paths: missing",
                                "fieldprof.estimates: missing",
                                "fieldprof.models.edges: missing",
                                "fieldprof.dead-letters: missing",
                                "fieldprof.shuffler.dead-letters: missing",
                                ""));

        CliCapture create = new CliCapture();
        assertThat(create.run("topics", "create", "--bootstrap", bootstrap, "--partitions", "3"))
                .as("the report topic still keeps the producers' clocks")
                .isEqualTo(1);
        assertThat(create.out())
                .contains(
                        "created fieldprof.reports.paths (3 partitions, cleanup.policy=delete,"
                            + " max.message.bytes=1048576, message.timestamp.type=LogAppendTime)\n",
                        "created fieldprof.programs (3 partitions, cleanup.policy=compact,"
                                + " max.message.bytes=67108864)\n",
                        "created fieldprof.reports.shuffled (3 partitions, cleanup.policy=delete,"
                            + " max.message.bytes=1048576, message.timestamp.type=CreateTime)\n",
                        "fieldprof.reports.frequency: message.timestamp.type is CreateTime,"
                                + " fieldprof needs LogAppendTime (fix with --fix)\n");

        CliCapture fix = new CliCapture();
        assertThat(fix.run("topics", "create", "--bootstrap", bootstrap, "--fix")).isEqualTo(0);
        assertThat(fix.out())
                .contains(
                        "fieldprof.reports.frequency: fixed, message.timestamp.type is"
                                + " CreateTime, fieldprof needs LogAppendTime\n");

        CliCapture after = new CliCapture();
        assertThat(after.run("topics", "check", "--bootstrap", bootstrap)).isEqualTo(0);
        assertThat(after.out().lines()).hasSize(10).allMatch(line -> line.contains(": ok ("));
        assertThat(TopicSettings.reportTopicWarning(bootstrap, Topics.FREQUENCY_REPORTS)).isEmpty();
    }

    @Test
    void namesTheBrokerThatDoesNotAnswer() {
        CliCapture cli = new CliCapture();
        assertThat(cli.run("topics", "check", "--bootstrap", "127.0.0.1:1")).isEqualTo(1);
        assertThat(cli.err())
                .isEqualTo(
                        "fieldprof: no Kafka broker answered at 127.0.0.1:1 within 15 s (is it"
                                + " running, and do security.protocol=PLAINTEXT and the port match"
                                + " its listener?)"
                                + System.lineSeparator());
    }
}
