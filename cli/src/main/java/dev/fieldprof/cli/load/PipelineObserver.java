package dev.fieldprof.cli.load;

import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.EstimateKeys;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Watches a load run from outside the job, as any consumer could: the broker's append time of each
 * of the run's reports on the report topic, and when each estimate window of the run's app version
 * became visible to a {@code read_committed} consumer of the estimates topic (the job writes them
 * in a transaction committed with a checkpoint, so this is the commit time, seen within one fetch),
 * plus the run's dead letters. Each topic is followed by its own thread from the end it had when
 * the observer started, so a slow report stream never delays the moment an estimate is seen.
 */
final class PipelineObserver implements AutoCloseable {
    /** One estimate window of the run: its bounds, its report count and when it was seen. */
    record CommittedWindow(long startMillis, long endMillis, long reports, long seenMillis) {}

    private final String appVersion;
    private final String deviceIdPrefix;
    private final String reportsTopic;
    private final String deadLetterTopic;
    private final KafkaConsumer<byte[], byte[]> reportConsumer;
    private final KafkaConsumer<byte[], byte[]> estimateConsumer;
    private final Thread reportThread;
    private final Thread estimateThread;

    // Guarded by this.
    private long[] appendTimes = new long[1 << 16];
    private int distinctReports;
    private long recordsOnTopic;
    private final Set<String> seen = new HashSet<>();

    /**
     * The run's windows by estimate key ({@link EstimateKeys}): a later revision of a window
     * replaces its count and keeps when the window was first seen, so no report counts twice and
     * the commit lag is the first publication's.
     */
    private final Map<String, CommittedWindow> windows = new LinkedHashMap<>();

    private long deadLetters;
    private String failure;

    PipelineObserver(
            Properties client,
            String reportsTopic,
            String estimatesTopic,
            String deadLetterTopic,
            String appVersion,
            String deviceIdPrefix) {
        this.appVersion = appVersion;
        this.deviceIdPrefix = deviceIdPrefix;
        this.reportsTopic = reportsTopic;
        this.deadLetterTopic = deadLetterTopic;
        this.reportConsumer = consumerAtEnd(client, List.of(reportsTopic), "read_uncommitted");
        try {
            this.estimateConsumer =
                    consumerAtEnd(
                            client, List.of(estimatesTopic, deadLetterTopic), "read_committed");
        } catch (RuntimeException e) {
            reportConsumer.close(Duration.ofSeconds(1));
            throw e;
        }
        this.reportThread = new Thread(this::followReports, "load-observer-reports");
        this.estimateThread = new Thread(this::followEstimates, "load-observer-estimates");
        reportThread.setDaemon(true);
        estimateThread.setDaemon(true);
        reportThread.start();
        estimateThread.start();
    }

    private static KafkaConsumer<byte[], byte[]> consumerAtEnd(
            Properties client, List<String> topics, String isolation) {
        String bootstrap = client.getProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
        Properties properties = new Properties();
        properties.putAll(client);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "fieldprof-load-observer");
        KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(
                        properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        try {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                var infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
                if (infos == null || infos.isEmpty()) {
                    throw new IllegalStateException(
                            "topic " + topic + " does not exist at " + bootstrap);
                }
                infos.forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            // Resolve the positions now: a report sent after the constructor returns is read.
            partitions.forEach(consumer::position);
            return consumer;
        } catch (RuntimeException e) {
            consumer.close(Duration.ofSeconds(1));
            throw e;
        }
    }

    private void followReports() {
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        try {
            while (true) {
                for (ConsumerRecord<byte[], byte[]> record :
                        reportConsumer.poll(Duration.ofMillis(200))) {
                    if (record.key() == null
                            || !new String(record.key(), StandardCharsets.UTF_8)
                                    .startsWith(deviceIdPrefix)) {
                        continue;
                    }
                    FrequencyReport report = codec.decode(record.value());
                    if (report.getAppVersion().equals(appVersion)) {
                        reportAppended(
                                report.getDeviceId() + "#" + report.getSequence(),
                                record.timestamp());
                    }
                }
            }
        } catch (WakeupException stopping) {
            // close()
        } catch (RuntimeException e) {
            failed("reading " + reportsTopic + ": " + e.getMessage());
        }
    }

    private synchronized void reportAppended(String id, long appendMillis) {
        recordsOnTopic++;
        // A re-sent report (after an outage) is on the topic twice; its first append counts.
        if (!seen.add(id)) {
            return;
        }
        if (distinctReports == appendTimes.length) {
            appendTimes = Arrays.copyOf(appendTimes, appendTimes.length * 2);
        }
        appendTimes[distinctReports++] = appendMillis;
    }

    private void followEstimates() {
        RecordCodec<EstimateWindow> estimates = RecordCodec.of(EstimateWindow.class);
        RecordCodec<DeadLetter> letters = RecordCodec.of(DeadLetter.class);
        try {
            while (true) {
                for (ConsumerRecord<byte[], byte[]> record :
                        estimateConsumer.poll(Duration.ofMillis(200))) {
                    long seenMillis = System.currentTimeMillis();
                    if (record.topic().equals(deadLetterTopic)) {
                        if (ofThisRun(letters.decode(record.value()))) {
                            synchronized (this) {
                                deadLetters++;
                            }
                        }
                        continue;
                    }
                    EstimateWindow window = estimates.decode(record.value());
                    if (window.getAppVersion().equals(appVersion) && !window.getCumulative()) {
                        synchronized (this) {
                            windows.merge(
                                    EstimateKeys.of(window),
                                    new CommittedWindow(
                                            window.getWindowStartMillis().toEpochMilli(),
                                            window.getWindowEndMillis().toEpochMilli(),
                                            window.getReports(),
                                            seenMillis),
                                    (first, revised) ->
                                            new CommittedWindow(
                                                    first.startMillis(),
                                                    first.endMillis(),
                                                    Math.max(first.reports(), revised.reports()),
                                                    first.seenMillis()));
                        }
                    }
                }
            }
        } catch (WakeupException stopping) {
            // close()
        } catch (RuntimeException e) {
            failed("reading the estimates: " + e.getMessage());
        }
    }

    /**
     * A dead letter of this run's reports: a report's letter keeps its bytes until validation, a
     * window sum's is keyed by the app version, a later stage's (LATE) names the device in its
     * reason.
     */
    private boolean ofThisRun(DeadLetter letter) {
        if (!letter.getSourceTopic().equals(reportsTopic)) {
            return false;
        }
        String key =
                letter.getKey() == null
                        ? ""
                        : new String(letter.getKey().array(), StandardCharsets.UTF_8);
        String reason = letter.getReason().toString();
        return (letter.getValue() != null
                        && new String(letter.getValue().array(), StandardCharsets.ISO_8859_1)
                                .contains(appVersion))
                || key.equals(appVersion)
                || key.startsWith(deviceIdPrefix)
                || reason.contains(appVersion)
                || reason.contains(deviceIdPrefix);
    }

    private synchronized void failed(String message) {
        failure = message;
    }

    /** What was observed so far. */
    synchronized Observation snapshot() {
        return new Observation(
                Arrays.copyOf(appendTimes, distinctReports),
                recordsOnTopic,
                List.copyOf(windows.values()),
                deadLetters,
                failure);
    }

    /**
     * @param appendTimes the broker append time of each distinct report of the run (first copy)
     * @param recordsOnTopic the run's records on the report topic, re-sent copies included
     * @param windows the run's estimate windows in the order they were seen
     * @param deadLetters dead letters of the run's reports
     * @param failure why a consumer stopped, or null
     */
    record Observation(
            long[] appendTimes,
            long recordsOnTopic,
            List<CommittedWindow> windows,
            long deadLetters,
            String failure) {
        long counted() {
            return windows.stream().mapToLong(CommittedWindow::reports).sum();
        }
    }

    @Override
    public void close() throws InterruptedException {
        reportConsumer.wakeup();
        estimateConsumer.wakeup();
        reportThread.join(5_000);
        estimateThread.join(5_000);
        reportConsumer.close(Duration.ofSeconds(2));
        estimateConsumer.close(Duration.ofSeconds(2));
    }
}
