package dev.fieldprof.jobs.testing;

import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.schemas.Topics;
import java.util.HashMap;
import java.util.Map;

/**
 * Fresh topics of one test's frequency job on the class's broker, created as fieldprof creates them
 * (reports stamped by the broker, programs and estimates compacted), and the job's options for
 * them: a consumer group and transactional ids of the test's own.
 */
public record FrequencyJobTopics(
        String bootstrap, String reports, String programs, String estimates, String deadLetters) {

    /** Creates the current test's four topics, one partition each. */
    public static FrequencyJobTopics create(JobsRuntimeExtension runtime) {
        return new FrequencyJobTopics(
                runtime.bootstrapServers(),
                runtime.createTopic("reports", 1, Topics.reportSettings()),
                runtime.createTopic("programs", 1, Topics.compactedSettings()),
                runtime.createTopic("estimates", 1, Topics.estimateSettings()),
                runtime.createTopic("dead-letters", 1, Topics.resultSettings()));
    }

    /**
     * Options of a job reading and writing these topics: checkpoints every second, 2 s of
     * out-of-orderness (the delay from the broker's append to the job's read of a report, which a
     * loaded machine stretches to seconds) and 1 s of idleness, then {@code tuning} over them.
     *
     * @param prefix names the consumer group and the transactional ids, with the reports topic
     * @param tuning further options by key (window, shuffled topic, ...)
     */
    public FrequencyJobOptions options(String prefix, Map<String, String> tuning) {
        Map<String, String> options = new HashMap<>();
        options.put(FrequencyJobOptions.BOOTSTRAP.key(), bootstrap);
        options.put(FrequencyJobOptions.REPORTS_TOPIC.key(), reports);
        options.put(FrequencyJobOptions.PROGRAMS_TOPIC.key(), programs);
        options.put(FrequencyJobOptions.ESTIMATES_TOPIC.key(), estimates);
        options.put(FrequencyJobOptions.DEAD_LETTER_TOPIC.key(), deadLetters);
        options.put(FrequencyJobOptions.GROUP_ID.key(), prefix + "-" + reports);
        options.put(FrequencyJobOptions.TRANSACTIONAL_ID_PREFIX.key(), prefix + "-" + reports);
        options.put(FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), "1 s");
        options.put(FrequencyJobOptions.OUT_OF_ORDERNESS.key(), "2 s");
        options.put(FrequencyJobOptions.IDLENESS.key(), "1 s");
        options.putAll(tuning);
        return FrequencyJobOptions.fromMap(options);
    }
}
