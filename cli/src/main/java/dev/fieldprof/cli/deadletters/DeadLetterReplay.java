package dev.fieldprof.cli.deadletters;

import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.jobs.io.DeadLetterRecords;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.ReplayKeys;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Re-submits the frequency reports of dead letters whose cause is gone. A {@code
 * MODEL_WAIT_EXPIRED} letter qualifies once its app version's program model is on the programs
 * topic; a {@code LATE} letter while its window's end plus the allowed lateness is still ahead of
 * the wall clock (the job judges by its watermark, which trails the wall clock, so a letter this
 * call replays is within the lateness there too unless the job lags by more than what is left). The
 * report is written to the replay topic keyed by its original coordinates ({@link ReplayKeys}) with
 * its original record time; the frequency job counts each key once. Letters whose key is on the
 * replay topic already are left as replayed before. Every byte read is hostile: a letter or report
 * that does not decode is left, with the reason.
 */
final class DeadLetterReplay {
    /** Letters shown per reason in the summary. */
    static final int SHOWN_PER_REASON = 5;

    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration READ_LIMIT = Duration.ofSeconds(60);
    private static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);
    private static final RecordCodec<FrequencyReport> REPORTS =
            RecordCodec.of(FrequencyReport.class);

    /** The topics the replay reads and writes. */
    record Topics(String deadLetters, String reports, String programs, String replay) {}

    /** What a run did: the keys it replayed and the letters it left, by reason. */
    record Outcome(List<String> replayed, Map<String, List<String>> left) {
        /** Lines for a person: counts, then the first few letters of each kind. */
        String describe(boolean dryRun) {
            StringBuilder out = new StringBuilder();
            int leftCount = left.values().stream().mapToInt(List::size).sum();
            out.append(dryRun ? "would replay " : "replayed ")
                    .append(replayed.size())
                    .append(" report(s); left ")
                    .append(leftCount)
                    .append(" letter(s)")
                    .append(System.lineSeparator());
            for (String key : replayed.subList(0, Math.min(SHOWN_PER_REASON, replayed.size()))) {
                out.append("  ")
                        .append(dryRun ? "would replay " : "replayed ")
                        .append(key)
                        .append(System.lineSeparator());
            }
            left.forEach(
                    (reason, keys) -> {
                        out.append("left ")
                                .append(keys.size())
                                .append(": ")
                                .append(reason)
                                .append(System.lineSeparator());
                        for (String key :
                                keys.subList(0, Math.min(SHOWN_PER_REASON, keys.size()))) {
                            out.append("  ").append(key).append(System.lineSeparator());
                        }
                    });
            return out.toString();
        }
    }

    private final Properties client;
    private final Topics topics;
    private final long windowMillis;
    private final long latenessMillis;

    DeadLetterReplay(Properties client, Topics topics, Duration window, Duration allowedLateness) {
        this.client = client;
        this.topics = topics;
        this.windowMillis = window.toMillis();
        this.latenessMillis = allowedLateness.toMillis();
    }

    /** Reads the letters and replays what qualifies at wall-clock time {@code nowMillis}. */
    Outcome run(long nowMillis, boolean dryRun) {
        Set<String> published = new HashSet<>();
        readAll(
                topics.programs(),
                r -> {
                    // A tombstone withdraws the app version's model.
                    if (r.value() == null) {
                        published.remove(text(r.key()));
                    } else {
                        published.add(text(r.key()));
                    }
                });
        Set<String> replayedBefore = new HashSet<>();
        readAll(topics.replay(), r -> ReplayKeys.parse(r.key()).ifPresent(replayedBefore::add));
        List<DeadLetter> letters = new ArrayList<>();
        Map<String, List<String>> left = new LinkedHashMap<>();
        readAll(
                topics.deadLetters(),
                r -> {
                    try {
                        letters.add(LETTERS.decode(r.value()));
                    } catch (RuntimeException e) {
                        leave(left, "undecodable dead letter", r.partition() + "@" + r.offset());
                    }
                });
        List<ProducerRecord<byte[], byte[]>> toSend = new ArrayList<>();
        Set<String> chosen = new HashSet<>();
        for (DeadLetter letter : letters) {
            String key =
                    ReplayKeys.of(
                            letter.getSourceTopic(), letter.getPartition(), letter.getOffset());
            DeadLetterReason reason = letter.getReasonCode();
            if (reason != DeadLetterReason.LATE && reason != DeadLetterReason.MODEL_WAIT_EXPIRED) {
                leave(left, "not replayable (" + reason + ")", key);
                continue;
            }
            if (topics.replay().equals(letter.getSourceTopic())) {
                leave(left, "a replayed report rejected again", key);
                continue;
            }
            if (!topics.reports().equals(letter.getSourceTopic())) {
                leave(left, "not from " + topics.reports(), key);
                continue;
            }
            if (replayedBefore.contains(key) || !chosen.add(key)) {
                leave(left, "already replayed", key);
                continue;
            }
            long recordTime = letter.getRecordTimestampMillis().toEpochMilli();
            long windowEnd = Math.floorDiv(recordTime, windowMillis) * windowMillis + windowMillis;
            if (windowEnd + latenessMillis <= nowMillis) {
                leave(
                        left,
                        "window ended "
                                + Instant.ofEpochMilli(windowEnd)
                                + ", beyond the allowed lateness",
                        key);
                chosen.remove(key);
                continue;
            }
            ConsumerRecord<byte[], byte[]> original;
            try {
                original = original(letter);
            } catch (AuthorizationException e) {
                leave(
                        left,
                        "letter keeps no bytes and "
                                + topics.reports()
                                + " refused READ (replay with a login that may read reports)",
                        key);
                chosen.remove(key);
                continue;
            }
            if (original == null) {
                leave(left, "original record no longer on " + topics.reports(), key);
                chosen.remove(key);
                continue;
            }
            String appVersion;
            try {
                appVersion = REPORTS.decode(original.value()).getAppVersion();
            } catch (RuntimeException e) {
                leave(left, "original record does not decode", key);
                chosen.remove(key);
                continue;
            }
            if (reason == DeadLetterReason.MODEL_WAIT_EXPIRED && !published.contains(appVersion)) {
                leave(left, "model of " + appVersion + " still not published", key);
                chosen.remove(key);
                continue;
            }
            toSend.add(
                    new ProducerRecord<>(
                            topics.replay(),
                            null,
                            recordTime,
                            key.getBytes(StandardCharsets.UTF_8),
                            original.value()));
        }
        if (!dryRun && !toSend.isEmpty()) {
            send(toSend);
        }
        List<String> replayed =
                toSend.stream().map(r -> new String(r.key(), StandardCharsets.UTF_8)).toList();
        return new Outcome(replayed, left);
    }

    private static void leave(Map<String, List<String>> left, String reason, String key) {
        left.computeIfAbsent(reason, r -> new ArrayList<>()).add(key);
    }

    /**
     * The original report: the letter's bytes when whole (shorter than what a letter keeps), else
     * the record at the letter's coordinates, or null when it is gone (retention) or unreadable.
     */
    private ConsumerRecord<byte[], byte[]> original(DeadLetter letter) {
        ByteBuffer kept = letter.getValue();
        if (kept != null && kept.remaining() < DeadLetterRecords.MAX_KEPT_VALUE_BYTES) {
            byte[] value = new byte[kept.remaining()];
            kept.duplicate().get(value);
            return new ConsumerRecord<>(
                    letter.getSourceTopic(),
                    letter.getPartition(),
                    letter.getOffset(),
                    null,
                    value);
        }
        TopicPartition partition =
                new TopicPartition(letter.getSourceTopic(), letter.getPartition());
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, letter.getOffset());
            long deadline = System.nanoTime() + READ_LIMIT.toNanos();
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            while (consumer.position(partition) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    if (record.offset() == letter.getOffset()) {
                        return record;
                    }
                    if (record.offset() > letter.getOffset()) {
                        return null;
                    }
                }
            }
            return null;
        }
    }

    /** Every committed record of {@code topic} from its beginning to its end as of now. */
    private void readAll(String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        try {
            readAllOrFail(topic, each);
        } catch (AuthorizationException e) {
            throw new CliFailure(topic + " refused READ to this login: " + e.getMessage());
        }
    }

    private void readAllOrFail(String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic);
            if (infos == null || infos.isEmpty()) {
                return;
            }
            List<TopicPartition> partitions =
                    infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + READ_LIMIT.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new CliFailure(
                            "could not read " + topic + " to its end within " + READ_LIMIT);
                }
                consumer.poll(POLL).forEach(each);
            }
        }
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Properties properties = new Properties();
        properties.putAll(client);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return new KafkaConsumer<>(
                properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private void send(List<ProducerRecord<byte[], byte[]>> records) {
        Properties properties = new Properties();
        properties.putAll(client);
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(
                        properties, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            for (ProducerRecord<byte[], byte[]> record : records) {
                sent.add(producer.send(record));
            }
            producer.flush();
            for (java.util.concurrent.Future<?> each : sent) {
                each.get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw new CliFailure(
                    "could not write to " + topics.replay() + ": " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliFailure("interrupted while writing to " + topics.replay());
        }
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
    }
}
