package dev.fieldprof.runtime;

import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The embedded runtime (docs/architecture.md, "Runtimes"): a KRaft broker and a Flink MiniCluster
 * in this JVM, with the ten fieldprof topics created (programs and edge models compacted, the
 * report topics stamped with the broker's append time). Used by {@code fieldprof demo} and by the
 * integration tests.
 *
 * <pre>{@code
 * try (EmbeddedRuntime runtime =
 *         EmbeddedRuntime.builder().partitions(4).taskSlots(4).build().start()) {
 *     String bootstrap = runtime.bootstrapServers();
 *     StreamExecutionEnvironment env = runtime.environment();
 * }
 * }</pre>
 */
public final class EmbeddedRuntime implements AutoCloseable {

    /** Every fieldprof topic, in the order they are created. */
    public static final List<String> TOPICS = Topics.ALL;

    private final int partitions;
    private final int taskSlots;
    private final boolean createTopics;
    private final EmbeddedKafka.SaslSslListener saslSsl;
    private EmbeddedKafka kafka;
    private EmbeddedFlink flink;
    private Duration startTime;

    private EmbeddedRuntime(
            int partitions,
            int taskSlots,
            boolean createTopics,
            EmbeddedKafka.SaslSslListener saslSsl) {
        this.partitions = partitions;
        this.taskSlots = taskSlots;
        this.createTopics = createTopics;
        this.saslSsl = saslSsl;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts the broker and the MiniCluster side by side, then creates the fieldprof topics.
     * Returns this; on failure whatever started is closed again.
     */
    public EmbeddedRuntime start() {
        if (kafka != null) {
            throw new IllegalStateException("already started");
        }
        long started = System.nanoTime();
        CompletableFuture<EmbeddedKafka> kafkaStart =
                CompletableFuture.supplyAsync(
                        () ->
                                EmbeddedKafka.builder()
                                        .defaultPartitions(partitions)
                                        .saslSslListener(saslSsl)
                                        .start());
        EmbeddedFlink startedFlink = null;
        try {
            startedFlink = EmbeddedFlink.builder().taskSlots(taskSlots).start();
            kafka = kafkaStart.join();
        } catch (Exception e) {
            closeQuietly(startedFlink);
            kafkaStart.thenAccept(EmbeddedKafka::close);
            Throwable cause = e instanceof CompletionException ? e.getCause() : e;
            throw new IllegalStateException(
                    "Could not start the embedded runtime: " + cause.getMessage(), cause);
        }
        flink = startedFlink;
        try {
            if (createTopics) {
                for (String topic : TOPICS) {
                    kafka.createTopic(topic, partitions, Topics.settings(topic));
                }
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        startTime = Duration.ofNanos(System.nanoTime() - started);
        return this;
    }

    public EmbeddedKafka kafka() {
        return requireStarted(kafka);
    }

    public EmbeddedFlink flink() {
        return requireStarted(flink);
    }

    public String bootstrapServers() {
        return kafka().bootstrapServers();
    }

    /** A new environment that runs its jobs on the MiniCluster. */
    public StreamExecutionEnvironment environment() {
        return flink().environment();
    }

    /** Partitions of each fieldprof topic. */
    public int partitions() {
        return partitions;
    }

    /** Wall time of {@link #start()}: both runtimes and the topics. */
    public Duration startTime() {
        return requireStarted(startTime);
    }

    /** Stops the MiniCluster (and with it every job) first, then the broker. Idempotent. */
    @Override
    public void close() {
        try {
            closeQuietly(flink);
        } finally {
            if (kafka != null) {
                kafka.close();
            }
        }
    }

    private static void closeQuietly(EmbeddedFlink flink) {
        if (flink == null) {
            return;
        }
        try {
            flink.close();
        } catch (ExecutionException e) {
            throw new IllegalStateException("MiniCluster did not shut down", e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException("MiniCluster did not shut down", e);
        }
    }

    private <T> T requireStarted(T part) {
        if (part == null) {
            throw new IllegalStateException("the embedded runtime is not started");
        }
        return part;
    }

    /** Starts a runtime, prints where it listens and how long it took to start, and stops it. */
    public static void main(String[] args) {
        try (EmbeddedRuntime runtime = builder().build().start()) {
            System.out.printf(
                    "bootstrap %s, REST %s%nbroker %d ms, MiniCluster %d ms, all with topics %d"
                            + " ms%n",
                    runtime.bootstrapServers(),
                    runtime.flink().restAddress(),
                    runtime.kafka().startTime().toMillis(),
                    runtime.flink().startTime().toMillis(),
                    runtime.startTime().toMillis());
        }
    }

    /** Sizes of the runtime; the defaults (4 partitions, 4 slots) suit the demo. */
    public static final class Builder {
        private int partitions = 4;
        private int taskSlots = 4;
        private boolean createTopics = true;
        private EmbeddedKafka.SaslSslListener saslSsl;

        private Builder() {}

        /**
         * Gives the broker a SASL_SSL listener too ({@link EmbeddedKafka.Builder#saslSslListener}).
         */
        public Builder saslSslListener(EmbeddedKafka.SaslSslListener listener) {
            this.saslSsl = listener;
            return this;
        }

        /** Partitions of every fieldprof topic (at least 1; default 4). */
        public Builder partitions(int partitions) {
            if (partitions < 1) {
                throw new IllegalArgumentException(
                        "partitions must be at least 1, got " + partitions);
            }
            this.partitions = partitions;
            return this;
        }

        /** Task slots of the MiniCluster (at least 1; default 4). */
        public Builder taskSlots(int taskSlots) {
            if (taskSlots < 1) {
                throw new IllegalArgumentException(
                        "task slots must be at least 1, got " + taskSlots);
            }
            this.taskSlots = taskSlots;
            return this;
        }

        /** Whether {@link #start()} creates the ten fieldprof topics (default true). */
        public Builder createTopics(boolean createTopics) {
            this.createTopics = createTopics;
            return this;
        }

        /** A runtime that is not started yet: call {@link EmbeddedRuntime#start()}. */
        public EmbeddedRuntime build() {
            return new EmbeddedRuntime(partitions, taskSlots, createTopics, saslSsl);
        }
    }
}
