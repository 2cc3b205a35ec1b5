package dev.fieldprof.runtime;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

import dev.fieldprof.schemas.Topics;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;

/**
 * A real Kafka broker in KRaft mode (one process acting as broker and controller) running inside
 * this JVM on free loopback ports, with its logs in a temporary directory that {@link #close()}
 * deletes. Configured for a single node: replication factor 1 everywhere and transactions that
 * exactly-once sinks can use. Not thread-safe to start and close concurrently; the accessors and
 * {@link #createTopic} may be called from any thread.
 *
 * <pre>{@code
 * try (EmbeddedKafka kafka = EmbeddedKafka.builder().defaultPartitions(4).start()) {
 *     kafka.createTopic("demo", 4, Topics.reportSettings());
 *     String bootstrap = kafka.bootstrapServers();
 * }
 * }</pre>
 */
public final class EmbeddedKafka implements AutoCloseable {
    /** Largest record of a compacted topic (program and edge models): 64 MiB. */
    public static final int MAX_MODEL_BYTES = Topics.MAX_MODEL_BYTES;

    /** The broker allows transactions of up to this long; exactly-once sinks must stay below. */
    public static final Duration MAX_TRANSACTION_TIMEOUT = Duration.ofMinutes(15);

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final String LOOPBACK = "127.0.0.1";
    private static final int NODE_ID = 1;
    private static final int BIND_ATTEMPTS = 3;

    private final Path directory;
    private final String bootstrapServers;
    private final String saslSslBootstrapServers;
    private final Properties brokerProperties;
    private KafkaRaftServer server;
    private final Admin admin;
    private final Duration startTime;
    private boolean stopped;
    private volatile boolean closed;

    private EmbeddedKafka(
            Path directory,
            String bootstrapServers,
            String saslSslBootstrapServers,
            Properties brokerProperties,
            KafkaRaftServer server,
            Admin admin,
            Duration startTime) {
        this.directory = directory;
        this.bootstrapServers = bootstrapServers;
        this.saslSslBootstrapServers = saslSslBootstrapServers;
        this.brokerProperties = brokerProperties;
        this.server = server;
        this.admin = admin;
        this.startTime = startTime;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** {@code 127.0.0.1:PORT} of the broker's plaintext listener. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * {@code 127.0.0.1:PORT} of the SASL_SSL listener ({@link Builder#saslSslListener}), or null
     * without one.
     */
    public String saslSslBootstrapServers() {
        return saslSslBootstrapServers;
    }

    /**
     * A SASL_SSL listener: SCRAM-SHA-512 logins over TLS with the broker's key and certificate from
     * a PKCS12 key store, and the SCRAM users the broker knows once it started. The plaintext
     * listener stays for the broker itself (inter-broker, controller) and for tests' own admin.
     * With {@link #withAcls()} the broker authorizes every request by ACLs (Kafka's {@code
     * StandardAuthorizer}, nothing allowed without an ACL); the plaintext listener's anonymous
     * principal (the broker itself, the runtime's own admin) and {@code user} are super users.
     *
     * @param keyStore PKCS12 key store holding the broker's key and certificate chain
     * @param keyStorePassword password of the key store and of the key in it
     * @param user SCRAM user created at start
     * @param password that user's password
     * @param otherUsers more SCRAM users created at start, name to password
     * @param acls whether requests are authorized by ACLs
     */
    public record SaslSslListener(
            Path keyStore,
            String keyStorePassword,
            String user,
            String password,
            Map<String, String> otherUsers,
            boolean acls) {
        /** The SASL mechanism of the listener. */
        public static final String MECHANISM = "SCRAM-SHA-512";

        public SaslSslListener {
            if (keyStore == null || keyStorePassword == null || user == null || password == null) {
                throw new IllegalArgumentException(
                        "key store, its password, user and password are all required");
            }
            otherUsers = Map.copyOf(otherUsers);
        }

        public SaslSslListener(
                Path keyStore, String keyStorePassword, String user, String password) {
            this(keyStore, keyStorePassword, user, password, Map.of(), false);
        }

        /** This listener with one more SCRAM user. */
        public SaslSslListener withUser(String name, String userPassword) {
            Map<String, String> users = new LinkedHashMap<>(otherUsers);
            users.put(name, userPassword);
            return new SaslSslListener(keyStore, keyStorePassword, user, password, users, acls);
        }

        /** This listener on a broker that authorizes every request by ACLs. */
        public SaslSslListener withAcls() {
            return new SaslSslListener(
                    keyStore, keyStorePassword, user, password, otherUsers, true);
        }

        /** Every SCRAM user of the listener, name to password. */
        Map<String, String> users() {
            Map<String, String> users = new LinkedHashMap<>();
            users.put(user, password);
            users.putAll(otherUsers);
            return users;
        }

        @Override
        public String toString() {
            return "SaslSslListener(keyStore=" + keyStore + ", users=" + users().keySet() + ")";
        }
    }

    /** Wall time from formatting the storage until the broker answered a metadata request. */
    public Duration startTime() {
        return startTime;
    }

    /** The temporary directory holding the broker's logs (deleted by {@link #close()}). */
    public Path directory() {
        return directory;
    }

    /** Properties for a client of this broker: only the bootstrap address. */
    public Properties clientProperties() {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return properties;
    }

    /**
     * Creates a topic with replication factor 1 and waits until every partition has a leader, so
     * that a producer started right after never sees an unknown partition. An existing topic is
     * left as it is.
     *
     * @param partitions at least 1
     * @param settings topic-level settings, e.g. {@link Topics#settings(String)} of a fieldprof
     *     topic or {@link Topics#reportSettings()} for a topic of reports
     */
    public void createTopic(String name, int partitions, Map<String, String> settings) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
        }
        Map<String, String> configs = new HashMap<>(settings);
        NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(configs);
        try {
            admin.createTopics(List.of(topic)).all().get(READY_TIMEOUT.toMillis(), MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("Could not create topic " + name, e.getCause());
            }
        } catch (Exception e) {
            throw new IllegalStateException("Could not create topic " + name, e);
        }
        awaitLeaders(name);
    }

    private void awaitLeaders(String name) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (true) {
            try {
                TopicDescription description =
                        admin.describeTopics(List.of(name))
                                .allTopicNames()
                                .get(READY_TIMEOUT.toMillis(), MILLISECONDS)
                                .get(name);
                if (description.partitions().stream()
                        .allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                    return;
                }
            } catch (ExecutionException e) {
                // The broker's metadata cache lags the controller for a moment: ask again.
            } catch (Exception e) {
                throw new IllegalStateException("Could not describe topic " + name, e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Topic "
                                + name
                                + " has partitions without a leader after "
                                + READY_TIMEOUT);
            }
            pause();
        }
    }

    /** An admin client of this broker, owned by this object (do not close it). */
    public Admin admin() {
        return admin;
    }

    /**
     * Shuts the broker down as an outage would, keeping its ports, cluster id and logs for {@link
     * #restart()}: clients see connections refused until then. For tests of clients that must ride
     * out a broker restart. Idempotent.
     */
    public synchronized void stop() {
        if (closed) {
            throw new IllegalStateException("the broker is closed");
        }
        if (stopped) {
            return;
        }
        stopped = true;
        server.shutdown();
        server.awaitShutdown();
    }

    /**
     * Starts a stopped broker again on the same ports and log directory (no new format: the same
     * cluster, topics and records) and returns once it answers and every partition has a leader
     * again. Fails if another process took one of the ports meanwhile.
     */
    public synchronized void restart() {
        if (closed) {
            throw new IllegalStateException("the broker is closed");
        }
        if (!stopped) {
            throw new IllegalStateException("the broker is running; stop() it first");
        }
        server = new KafkaRaftServer(new KafkaConfig(brokerProperties, false), Time.SYSTEM);
        server.startup();
        stopped = false;
        Builder.awaitBroker(admin);
        Set<String> topics;
        try {
            topics = admin.listTopics().names().get(READY_TIMEOUT.toMillis(), MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Could not list the topics after a restart", e);
        }
        topics.forEach(this::awaitLeaders);
    }

    /** Stops the broker, waits for it to finish and deletes its directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            admin.close(Duration.ofSeconds(5));
        } finally {
            try {
                if (!stopped) {
                    server.shutdown();
                    server.awaitShutdown();
                }
            } finally {
                deleteRecursively(directory);
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50); // polling interval of a real condition, not a wait for a result
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the broker", e);
        }
    }

    /** A loopback port nobody listens on at the moment of the call. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free loopback port", e);
        }
    }

    static void deleteRecursively(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(
                            path -> {
                                try {
                                    Files.deleteIfExists(path);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            });
        } catch (IOException e) {
            throw new UncheckedIOException("Could not delete " + root, e);
        }
    }

    /** Options of the embedded broker; every one has a default that suits tests and the demo. */
    public static final class Builder {
        private int defaultPartitions = 1;
        private SaslSslListener saslSsl;
        private final Map<String, String> overrides = new LinkedHashMap<>();

        private Builder() {}

        /** Partitions of topics the broker creates on its own ({@code num.partitions}). */
        public Builder defaultPartitions(int partitions) {
            if (partitions < 1) {
                throw new IllegalArgumentException(
                        "partitions must be at least 1, got " + partitions);
            }
            this.defaultPartitions = partitions;
            return this;
        }

        /** Adds a SASL_SSL listener (SCRAM-SHA-512 over TLS) beside the plaintext one. */
        public Builder saslSslListener(SaslSslListener listener) {
            this.saslSsl = listener;
            return this;
        }

        /** Sets or overrides one broker property, e.g. {@code log.retention.ms}. */
        public Builder brokerProperty(String key, String value) {
            overrides.put(key, value);
            return this;
        }

        /** Formats fresh storage, starts the broker and returns once it answers requests. */
        public EmbeddedKafka start() {
            long started = System.nanoTime();
            // A port found free can be taken by another process before the broker binds it:
            // such a start is retried on fresh ports.
            for (int attempt = 1; ; attempt++) {
                try {
                    return startOnce(started);
                } catch (RuntimeException e) {
                    if (attempt >= BIND_ATTEMPTS || !causedByBindFailure(e)) {
                        throw e;
                    }
                }
            }
        }

        private EmbeddedKafka startOnce(long started) {
            Path directory;
            try {
                directory = Files.createTempDirectory("fieldprof-kafka-");
            } catch (IOException e) {
                throw new UncheckedIOException("Could not create the broker directory", e);
            }
            KafkaRaftServer server = null;
            Admin admin = null;
            try {
                int brokerPort = freePort();
                int controllerPort = freePort();
                int securePort = saslSsl == null ? -1 : freePort();
                Properties properties =
                        brokerProperties(directory, brokerPort, controllerPort, securePort);
                KafkaConfig config = new KafkaConfig(properties, false);
                format(config, directory);
                server = new KafkaRaftServer(config, Time.SYSTEM);
                server.startup();
                String bootstrap = LOOPBACK + ":" + brokerPort;
                Properties adminProperties = new Properties();
                adminProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
                admin = Admin.create(adminProperties);
                awaitBroker(admin);
                if (saslSsl != null) {
                    createScramUser(admin, saslSsl);
                }
                return new EmbeddedKafka(
                        directory,
                        bootstrap,
                        saslSsl == null ? null : LOOPBACK + ":" + securePort,
                        properties,
                        server,
                        admin,
                        Duration.ofNanos(System.nanoTime() - started));
            } catch (RuntimeException | Error e) {
                if (admin != null) {
                    admin.close(Duration.ofSeconds(1));
                }
                if (server != null) {
                    server.shutdown();
                    server.awaitShutdown();
                }
                deleteRecursively(directory);
                throw e;
            }
        }

        private static boolean causedByBindFailure(Throwable failure) {
            for (Throwable t = failure; t != null; t = t.getCause()) {
                if (t instanceof BindException) {
                    return true;
                }
            }
            return false;
        }

        /** The listener's users, with the broker's default SCRAM iterations. */
        private static void createScramUser(Admin admin, SaslSslListener listener) {
            List<UserScramCredentialAlteration> users = new ArrayList<>();
            listener.users()
                    .forEach(
                            (name, password) ->
                                    users.add(
                                            new UserScramCredentialUpsertion(
                                                    name,
                                                    new ScramCredentialInfo(
                                                            ScramMechanism.SCRAM_SHA_512, 4096),
                                                    password)));
            try {
                admin.alterUserScramCredentials(users)
                        .all()
                        .get(READY_TIMEOUT.toMillis(), MILLISECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(
                        "Could not create the SCRAM users " + listener.users().keySet(), e);
            }
        }

        private Properties brokerProperties(
                Path directory, int brokerPort, int controllerPort, int securePort) {
            Properties p = new Properties();
            p.put("process.roles", "broker,controller");
            p.put("node.id", String.valueOf(NODE_ID));
            p.put("controller.quorum.voters", NODE_ID + "@" + LOOPBACK + ":" + controllerPort);
            p.put(
                    "listeners",
                    "PLAINTEXT://"
                            + LOOPBACK
                            + ":"
                            + brokerPort
                            + ",CONTROLLER://"
                            + LOOPBACK
                            + ":"
                            + controllerPort);
            p.put("advertised.listeners", "PLAINTEXT://" + LOOPBACK + ":" + brokerPort);
            p.put("controller.listener.names", "CONTROLLER");
            p.put("inter.broker.listener.name", "PLAINTEXT");
            p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
            p.put("log.dirs", directory.resolve("data").toString());
            p.put("num.partitions", String.valueOf(defaultPartitions));
            // A single node: every internal topic has one replica.
            p.put("offsets.topic.replication.factor", "1");
            p.put("offsets.topic.num.partitions", "4");
            p.put("transaction.state.log.replication.factor", "1");
            p.put("transaction.state.log.min.isr", "1");
            p.put("transaction.state.log.num.partitions", "4");
            p.put("share.coordinator.state.topic.replication.factor", "1");
            p.put("share.coordinator.state.topic.min.isr", "1");
            p.put("default.replication.factor", "1");
            p.put("min.insync.replicas", "1");
            // Exactly-once sinks hold a transaction open across a checkpoint interval.
            p.put("transaction.max.timeout.ms", String.valueOf(MAX_TRANSACTION_TIMEOUT.toMillis()));
            // Consumers join at once instead of waiting for more members.
            p.put("group.initial.rebalance.delay.ms", "0");
            // A small footprint: the cleaner's dedupe buffer defaults to 128 MB of heap.
            p.put("log.cleaner.dedupe.buffer.size", String.valueOf(8L * 1024 * 1024));
            p.put("log.cleaner.threads", "1");
            p.put("num.network.threads", "2");
            p.put("num.io.threads", "2");
            p.put("background.threads", "2");
            p.put("num.recovery.threads.per.data.dir", "1");
            if (saslSsl != null) {
                addSaslSslListener(p, securePort);
            }
            p.putAll(overrides);
            return p;
        }

        /**
         * A SASL_SSL listener next to the plaintext one: SCRAM-SHA-512 logins, the broker's
         * certificate from the PKCS12 key store. Inter-broker and controller traffic stay on
         * plaintext loopback, so the broker needs no credentials of its own.
         */
        private void addSaslSslListener(Properties p, int securePort) {
            String secure = "SASL_SSL://" + LOOPBACK + ":" + securePort;
            p.put("listeners", p.getProperty("listeners") + "," + secure);
            p.put("advertised.listeners", p.getProperty("advertised.listeners") + "," + secure);
            p.put(
                    "listener.security.protocol.map",
                    p.getProperty("listener.security.protocol.map") + ",SASL_SSL:SASL_SSL");
            String prefix = "listener.name.sasl_ssl.";
            p.put(prefix + "sasl.enabled.mechanisms", SaslSslListener.MECHANISM);
            p.put(
                    prefix + "scram-sha-512.sasl.jaas.config",
                    "org.apache.kafka.common.security.scram.ScramLoginModule required;");
            p.put(prefix + "ssl.keystore.type", "PKCS12");
            p.put(prefix + "ssl.keystore.location", saslSsl.keyStore().toString());
            p.put(prefix + "ssl.keystore.password", saslSsl.keyStorePassword());
            p.put(prefix + "ssl.key.password", saslSsl.keyStorePassword());
            if (saslSsl.acls()) {
                p.put(
                        "authorizer.class.name",
                        "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
                // The broker itself and the runtime's admin use the plaintext loopback listener;
                // the listener's first user is the cluster's administrator.
                p.put("super.users", "User:ANONYMOUS;User:" + saslSsl.user());
            }
        }

        /** Writes meta.properties and the bootstrap metadata, as {@code kafka-storage format}. */
        private static void format(KafkaConfig config, Path directory) {
            Formatter formatter =
                    new Formatter()
                            .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                            .setNodeId(config.nodeId())
                            .setClusterId(Uuid.randomUuid().toString())
                            .setControllerListenerName("CONTROLLER")
                            .setMetadataLogDirectory(config.metadataLogDir());
            // No release version set: the formatter picks the latest production one, as the tool.
            formatter.addDirectory(directory.resolve("data").toString());
            try {
                formatter.run();
            } catch (Exception e) {
                throw new IllegalStateException("Could not format the broker storage", e);
            }
        }

        private static void awaitBroker(Admin admin) {
            long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
            while (true) {
                try {
                    if (!admin.describeCluster()
                            .nodes()
                            .get(READY_TIMEOUT.toMillis(), MILLISECONDS)
                            .isEmpty()) {
                        return;
                    }
                } catch (ExecutionException e) {
                    // Not serving yet: ask again until the deadline.
                } catch (Exception e) {
                    throw new IllegalStateException("Broker did not answer", e);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "Broker not ready after " + READY_TIMEOUT.toSeconds() + " s");
                }
                pause();
            }
        }
    }
}
