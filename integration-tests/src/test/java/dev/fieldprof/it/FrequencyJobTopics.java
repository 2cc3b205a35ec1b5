package dev.fieldprof.it;

import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Fresh topics for one run of the frequency job on the shared broker (reports stamped by the
 * broker, as fieldprof creates them), and the job's options for them: a consumer group and
 * transactional ids of the test's own, and the test's tuning on top.
 */
record FrequencyJobTopics(
        String bootstrap, String reports, String programs, String estimates, String deadLetters) {

    static FrequencyJobTopics create(FieldprofRuntimeExtension runtime, int reportPartitions) {
        return new FrequencyJobTopics(
                runtime.bootstrapServers(),
                runtime.createRandomReportTopic(reportPartitions),
                runtime.createRandomTopic(1, true),
                runtime.createRandomTopic(1, false),
                runtime.createRandomTopic(1, false));
    }

    /**
     * As {@link #create}, but the reports keep the producers' timestamps (a report carries its
     * time, as a replayed one keeps its original time) and the estimates topic is compacted, so
     * that a window's revisions share its key.
     */
    static FrequencyJobTopics createKeepingReportTimes(
            FieldprofRuntimeExtension runtime, int reportPartitions) {
        return new FrequencyJobTopics(
                runtime.bootstrapServers(),
                runtime.createRandomTopic(reportPartitions, false),
                runtime.createRandomTopic(1, true),
                runtime.createRandomTopic(1, true),
                runtime.createRandomTopic(1, false));
    }

    /** Publishes {@link KnownReports#model} of {@code app} and returns once it is acknowledged. */
    void publishModel(FieldprofRuntimeExtension runtime, String app) {
        runtime.produce(
                List.of(
                        new ProducerRecord<>(
                                programs,
                                app,
                                RecordCodec.of(ProgramModel.class)
                                        .encode(KnownReports.model(app)))),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    /**
     * Options of a job reading and writing these topics.
     *
     * @param prefix names the consumer group and transactional ids, with the topics' suffix
     * @param tuning further options by name (window, shards, checkpoint interval, ...)
     */
    FrequencyJobOptions options(String prefix, Map<String, String> tuning) {
        String unique = prefix + "-" + reports.substring(reports.lastIndexOf('.') + 1);
        Map<String, String> options = new HashMap<>(tuning);
        options.put(FrequencyJobOptions.BOOTSTRAP.key(), bootstrap);
        options.put(FrequencyJobOptions.REPORTS_TOPIC.key(), reports);
        options.put(FrequencyJobOptions.PROGRAMS_TOPIC.key(), programs);
        options.put(FrequencyJobOptions.ESTIMATES_TOPIC.key(), estimates);
        options.put(FrequencyJobOptions.DEAD_LETTER_TOPIC.key(), deadLetters);
        options.put(FrequencyJobOptions.GROUP_ID.key(), unique);
        options.put(FrequencyJobOptions.TRANSACTIONAL_ID_PREFIX.key(), unique);
        return FrequencyJobOptions.fromMap(options);
    }
}
