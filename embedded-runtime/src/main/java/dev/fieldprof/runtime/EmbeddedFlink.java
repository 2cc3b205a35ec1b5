package dev.fieldprof.runtime;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.dag.Pipeline;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.core.execution.PipelineExecutorServiceLoader;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * A Flink {@link MiniCluster} (one TaskManager with a configurable number of slots, REST endpoint
 * on a free loopback port) and the {@link StreamExecutionEnvironment}s that submit jobs to it
 * directly, without going through REST. Safe to call {@link #environment()} from several threads.
 *
 * <pre>{@code
 * try (EmbeddedFlink flink = EmbeddedFlink.builder().taskSlots(4).start()) {
 *     StreamExecutionEnvironment env = flink.environment();
 *     env.fromData(1, 2, 3).print();
 *     env.execute("example");
 * }
 * }</pre>
 */
public final class EmbeddedFlink implements AutoCloseable {

    private static final String EXECUTOR_NAME = "fieldprof-embedded";

    private final MiniCluster cluster;
    private final int taskSlots;
    private final URI restAddress;
    private final Duration startTime;
    private volatile boolean closed;

    private EmbeddedFlink(MiniCluster cluster, int taskSlots, URI restAddress, Duration startTime) {
        this.cluster = cluster;
        this.taskSlots = taskSlots;
        this.restAddress = restAddress;
        this.startTime = startTime;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Slots of the one TaskManager: the highest parallelism a job can run with. */
    public int taskSlots() {
        return taskSlots;
    }

    /**
     * The REST endpoint ({@code http://127.0.0.1:PORT}); the web UI is served there when {@code
     * flink-runtime-web} is on the classpath.
     */
    public URI restAddress() {
        return restAddress;
    }

    /** Wall time of {@link MiniCluster#start()} until the REST endpoint was known. */
    public Duration startTime() {
        return startTime;
    }

    /** The cluster itself, for callers that submit job graphs or query job status. */
    public MiniCluster miniCluster() {
        return cluster;
    }

    /**
     * A new environment whose {@code execute()} and {@code executeAsync()} run on this cluster. Its
     * default parallelism is the number of task slots.
     */
    public StreamExecutionEnvironment environment() {
        Configuration configuration = new Configuration();
        configuration.set(DeploymentOptions.TARGET, EXECUTOR_NAME);
        configuration.set(DeploymentOptions.ATTACHED, true);
        configuration.set(CoreOptions.DEFAULT_PARALLELISM, taskSlots);
        return new StreamExecutionEnvironment(
                new ClusterExecutorLoader(cluster),
                configuration,
                Thread.currentThread().getContextClassLoader());
    }

    /** Cancels nothing explicitly: closing the MiniCluster stops every running job with it. */
    @Override
    public void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        cluster.closeAsync().get(60, TimeUnit.SECONDS);
    }

    /** Options of the MiniCluster; the defaults suit tests and the demo. */
    public static final class Builder {
        private int taskSlots = 4;
        private int restPort;
        private final Configuration configuration = new Configuration();

        private Builder() {}

        /** Slots of the one TaskManager (at least 1; default 4). */
        public Builder taskSlots(int slots) {
            if (slots < 1) {
                throw new IllegalArgumentException("task slots must be at least 1, got " + slots);
            }
            this.taskSlots = slots;
            return this;
        }

        /**
         * Port of the REST endpoint (and of the web UI when {@code flink-runtime-web} is on the
         * classpath); 0, the default, takes a free one.
         */
        public Builder restPort(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be in 0..65535, got " + port);
            }
            this.restPort = port;
            return this;
        }

        /** Adds Flink configuration; it overrides the builder's own settings. */
        public Builder configuration(Configuration extra) {
            configuration.addAll(extra);
            return this;
        }

        public EmbeddedFlink start() throws Exception {
            long started = System.nanoTime();
            Configuration conf = new Configuration();
            conf.set(RestOptions.ADDRESS, "127.0.0.1");
            conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
            conf.set(RestOptions.BIND_PORT, String.valueOf(restPort));
            // Small memory: a job of ours keeps its state on the heap and needs no managed memory.
            conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.ofMebiBytes(32));
            conf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.ofMebiBytes(64));
            conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.ofMebiBytes(64));
            conf.set(TaskManagerOptions.NUM_TASK_SLOTS, taskSlots);
            conf.addAll(configuration);
            MiniCluster cluster =
                    new MiniCluster(
                            new MiniClusterConfiguration.Builder()
                                    .setConfiguration(conf)
                                    .setNumTaskManagers(1)
                                    .setNumSlotsPerTaskManager(taskSlots)
                                    .setCommonBindAddress("127.0.0.1")
                                    .build());
            try {
                cluster.start();
                URI rest = cluster.getRestAddress().get(60, TimeUnit.SECONDS);
                return new EmbeddedFlink(
                        cluster, taskSlots, rest, Duration.ofNanos(System.nanoTime() - started));
            } catch (Exception | Error e) {
                cluster.closeAsync().get(60, TimeUnit.SECONDS);
                throw e;
            }
        }
    }

    /** Hands every pipeline of an environment to the one MiniCluster. */
    private static final class ClusterExecutorLoader implements PipelineExecutorServiceLoader {
        private final MiniCluster cluster;

        ClusterExecutorLoader(MiniCluster cluster) {
            this.cluster = cluster;
        }

        @Override
        public PipelineExecutorFactory getExecutorFactory(Configuration configuration) {
            return new PipelineExecutorFactory() {
                @Override
                public String getName() {
                    return EXECUTOR_NAME;
                }

                @Override
                public boolean isCompatibleWith(Configuration config) {
                    return true;
                }

                @Override
                public PipelineExecutor getExecutor(Configuration config) {
                    return new ClusterExecutor(cluster);
                }
            };
        }

        @Override
        public Stream<String> getExecutorNames() {
            return Stream.of(EXECUTOR_NAME);
        }
    }

    /** Submits a pipeline's stream graph to the MiniCluster and returns a client for the job. */
    private static final class ClusterExecutor implements PipelineExecutor {
        private final MiniCluster cluster;

        ClusterExecutor(MiniCluster cluster) {
            this.cluster = cluster;
        }

        @Override
        public CompletableFuture<JobClient> execute(
                Pipeline pipeline, Configuration configuration, ClassLoader classLoader)
                throws Exception {
            StreamGraph graph = PipelineExecutorUtils.getStreamGraph(pipeline, configuration);
            return cluster.submitJob(graph)
                    .thenApply(
                            submitted -> {
                                JobID id = submitted.getJobID();
                                return new MiniClusterJobClient(
                                        id,
                                        cluster,
                                        classLoader,
                                        MiniClusterJobClient.JobFinalizationBehavior.NOTHING);
                            });
        }
    }
}
