package dev.fieldprof.jobs.io;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
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
 */
public final class KafkaEndOffsets {
    /** The shortest interval between two rounds: bounds the load on the brokers. */
    public static final Duration MIN_INTERVAL = Duration.ofMillis(100);

    /** How long one request may take before its round gives up. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

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
                        latest = observe(admin);
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
