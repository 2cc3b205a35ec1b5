package dev.fieldprof.jobs.io;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * End offsets of a topic observed by one background thread per JVM and topic: every source subtask
 * of a job in this JVM that reads the topic with the same client settings shares one Admin client
 * and one request per round, however many subtasks there are. The thread asks for the log start and
 * end offsets of every partition every {@code interval} (the shortest its users asked for, at least
 * {@link #MIN_INTERVAL}), each request bounded by {@link #REQUEST_TIMEOUT}; a failed round keeps
 * the previous observation, which stays true of its own time. The thread and its client end when
 * the last user closes its handle (a source reader, when its task ends).
 *
 * <p>A reader whose next offset stays below a partition's end offset asks the thread to check
 * whether what is left there is readable at all ({@link EndOffsets#checkReadable}): on a topic
 * written in transactions the last offsets are commit markers. The thread checks each such range
 * once, with a {@code read_committed} consumer it opens on the first request ({@link
 * ReadableRecordsCheck}), and every later observation of the same end offset carries what it
 * established.
 */
public final class KafkaEndOffsets {
    /** The shortest interval between two rounds: bounds the load on the brokers. */
    public static final Duration MIN_INTERVAL = Duration.ofMillis(100);

    /** How long one request may take before its round gives up. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /** How long checking one partition's unread range may take before it counts as readable. */
    static final Duration CHECK_TIMEOUT = Duration.ofSeconds(2);

    private static final Logger LOG = LoggerFactory.getLogger(KafkaEndOffsets.class);
    private static final Map<String, Observer> OBSERVERS = new HashMap<>();

    private KafkaEndOffsets() {}

    /**
     * What a source carries to its tasks to observe {@code topic} there.
     *
     * @param client the job's Kafka client properties, passed unchanged beneath the settings the
     *     observer relies on
     * @param interval how often to ask (raised to {@link #MIN_INTERVAL})
     */
    public static EndOffsets.Factory of(Properties client, String topic, Duration interval) {
        return new OnKafka(KafkaClientSettings.copyOf(client), topic, interval.toMillis());
    }

    /** How many observers run in this JVM: none once the tasks of every job here have ended. */
    public static synchronized int running() {
        return OBSERVERS.size();
    }

    private static synchronized EndOffsets open(
            Properties client, String topic, long intervalMillis) {
        String key = key(client, topic);
        Observer observer = OBSERVERS.get(key);
        boolean fresh = observer == null;
        if (fresh) {
            observer = new Observer(key, client, topic);
            OBSERVERS.put(key, observer);
        }
        // Before the thread starts, so that its first pause already has an interval.
        observer.addUser(Math.max(intervalMillis, MIN_INTERVAL.toMillis()));
        if (fresh) {
            observer.start();
        }
        return new Handle(observer);
    }

    private static synchronized void release(Observer observer) {
        if (observer.removeUser() == 0) {
            OBSERVERS.remove(observer.key);
            observer.stop();
        }
    }

    /** The topic and the client properties in a stable order (never logged: it holds secrets). */
    private static String key(Properties client, String topic) {
        Map<String, String> sorted = new TreeMap<>();
        client.forEach((k, v) -> sorted.put(String.valueOf(k), String.valueOf(v)));
        return topic + "\n" + sorted;
    }

    private record OnKafka(Properties client, String topic, long intervalMillis)
            implements EndOffsets.Factory {
        @Override
        public EndOffsets open() {
            return KafkaEndOffsets.open(client, topic, intervalMillis);
        }
    }

    private static final class Handle implements EndOffsets {
        private final Observer observer;
        private boolean closed;

        Handle(Observer observer) {
            this.observer = observer;
        }

        @Override
        public EndOffsetObservation latest() {
            return observer.latest;
        }

        @Override
        public void checkReadable(int partition, long from, long endOffset) {
            if (!closed) {
                observer.checkReadable(partition, from, endOffset);
            }
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                release(observer);
            }
        }
    }

    private static final class Observer implements Runnable {
        final String key;
        private final Properties client;
        private final String topic;
        private final Thread thread;
        private int users;
        private volatile long intervalMillis = Long.MAX_VALUE;
        private volatile boolean stopped;
        volatile EndOffsetObservation latest;

        /** Ranges readers asked to check: partition → {from, end}; the latest ask wins. */
        private final Map<Integer, long[]> asked = new ConcurrentHashMap<>();

        /** Observer thread only: partition → {end, nothing readable from} established. */
        private final Map<Integer, long[]> established = new HashMap<>();

        /** Observer thread only: what was asked in the previous round. */
        private final Map<Integer, long[]> askedBefore = new HashMap<>();

        /** Observer thread only: partition → {from, end} found readable (not checked again). */
        private final Map<Integer, long[]> readable = new HashMap<>();

        private ReadableRecordsCheck check;

        Observer(String key, Properties client, String topic) {
            this.key = key;
            this.client = client;
            this.topic = topic;
            this.thread = new Thread(this, "fieldprof-end-offsets-" + topic);
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        void checkReadable(int partition, long from, long end) {
            asked.put(partition, new long[] {from, end});
        }

        /** Called under the class lock. */
        void addUser(long interval) {
            users++;
            intervalMillis = Math.min(intervalMillis, interval);
        }

        /** Called under the class lock; returns the users left. */
        int removeUser() {
            return --users;
        }

        void stop() {
            stopped = true;
            thread.interrupt();
        }

        @Override
        public void run() {
            Admin admin = null;
            boolean warned = false;
            try {
                admin = Admin.create(client);
                while (!stopped) {
                    try {
                        latest = withChecks(observe(admin));
                        warned = false;
                    } catch (ExecutionException | TimeoutException | RuntimeException e) {
                        // The previous observation stays true of its time: event time waits.
                        if (!warned) {
                            LOG.warn(
                                    "Cannot observe the end offsets of {} ({}); event time waits"
                                            + " until they can be observed",
                                    topic,
                                    e.getClass().getSimpleName());
                            warned = true;
                        }
                    }
                    Thread.sleep(intervalMillis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                LOG.warn("Cannot observe the end offsets of {}: {}", topic, e.toString());
            } finally {
                if (admin != null) {
                    admin.close(Duration.ofSeconds(1));
                }
                closeCheck();
            }
        }

        /**
         * The observation with what checks established about its end offsets. A range is checked
         * once, when a reader asked about the same range in two rounds in a row: its partition got
         * nothing new and the reader read nothing more in between, so it is not merely catching up
         * (a check of a range that holds records fetches one record batch).
         */
        private EndOffsetObservation withChecks(EndOffsetObservation observation) {
            Map<Integer, long[]> askedNow = new HashMap<>();
            for (Map.Entry<Integer, long[]> ask : asked.entrySet()) {
                askedNow.put(ask.getKey(), ask.getValue());
                asked.remove(ask.getKey(), ask.getValue());
            }
            askedNow.forEach(
                    (partition, range) -> {
                        long[] before = askedBefore.get(partition);
                        if (before != null && Arrays.equals(before, range)) {
                            check(observation, partition, range[0], range[1]);
                        }
                    });
            askedBefore.clear();
            askedBefore.putAll(askedNow);
            if (established.isEmpty()) {
                return observation;
            }
            Map<Integer, EndOffsetObservation.Extent> partitions =
                    new HashMap<>(observation.partitions());
            established.forEach(
                    (partition, known) -> {
                        EndOffsetObservation.Extent extent = partitions.get(partition);
                        if (extent != null && extent.endOffset() == known[0]) {
                            partitions.put(
                                    partition,
                                    new EndOffsetObservation.Extent(
                                            extent.logStartOffset(), known[0], known[1]));
                        }
                    });
            return new EndOffsetObservation(observation.askedAtMillis(), partitions);
        }

        private void check(EndOffsetObservation observation, int partition, long from, long end) {
            EndOffsetObservation.Extent extent = observation.partitions().get(partition);
            long[] known = established.get(partition);
            long[] found = readable.get(partition);
            if (extent == null
                    || extent.endOffset() != end
                    || (known != null && known[0] == end && known[1] <= from)
                    || (found != null && found[0] == from && found[1] == end)) {
                return; // appended to since, or answered already
            }
            ReadableRecordsCheck.Finding finding;
            try {
                if (check == null) {
                    check = new ReadableRecordsCheck(client);
                }
                finding =
                        check.check(new TopicPartition(topic, partition), from, end, CHECK_TIMEOUT);
            } catch (RuntimeException e) {
                // Not established: event time waits for records, as without the check.
                LOG.warn(
                        "Cannot check what is left to read on {}-{} ({})",
                        topic,
                        partition,
                        e.getClass().getSimpleName());
                closeCheck();
                return;
            }
            switch (finding) {
                case NOTHING_READABLE -> established.put(partition, new long[] {end, from});
                case READABLE -> readable.put(partition, new long[] {from, end});
                case UNDECIDED -> {} // asked again, checked again
            }
        }

        private void closeCheck() {
            if (check != null) {
                try {
                    check.close();
                } catch (RuntimeException e) {
                    LOG.debug("Closing the readable-records check failed", e);
                }
                check = null;
            }
        }

        private EndOffsetObservation observe(Admin admin)
                throws ExecutionException, TimeoutException, InterruptedException {
            long timeout = REQUEST_TIMEOUT.toMillis();
            TopicDescription description =
                    admin.describeTopics(
                                    List.of(topic),
                                    new DescribeTopicsOptions().timeoutMs((int) timeout))
                            .allTopicNames()
                            .get(timeout, TimeUnit.MILLISECONDS)
                            .get(topic);
            Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
            Map<TopicPartition, OffsetSpec> latestSpec = new HashMap<>();
            for (TopicPartitionInfo partition : description.partitions()) {
                TopicPartition tp = new TopicPartition(topic, partition.partition());
                earliest.put(tp, OffsetSpec.earliest());
                latestSpec.put(tp, OffsetSpec.latest());
            }
            ListOffsetsOptions options = new ListOffsetsOptions().timeoutMs((int) timeout);
            // Log start first, then the time, then the end: the end offsets answer for the time.
            Map<TopicPartition, ListOffsetsResultInfo> starts =
                    admin.listOffsets(earliest, options).all().get(timeout, TimeUnit.MILLISECONDS);
            long askedAt = System.currentTimeMillis();
            Map<TopicPartition, ListOffsetsResultInfo> ends =
                    admin.listOffsets(latestSpec, options)
                            .all()
                            .get(timeout, TimeUnit.MILLISECONDS);
            Map<Integer, EndOffsetObservation.Extent> partitions = new HashMap<>();
            ends.forEach(
                    (tp, end) -> {
                        ListOffsetsResultInfo start = starts.get(tp);
                        if (start != null) {
                            partitions.put(
                                    tp.partition(),
                                    new EndOffsetObservation.Extent(start.offset(), end.offset()));
                        }
                    });
            return new EndOffsetObservation(askedAt, partitions);
        }
    }
}
