package dev.fieldprof.cli.topics;

import dev.fieldprof.cli.options.KafkaClientProperties;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.jobs.io.FieldprofAcls;
import dev.fieldprof.jobs.io.TopicSettings;
import dev.fieldprof.schemas.Topics;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.SecurityDisabledException;

/**
 * Creates the fieldprof topics that are missing with the settings they need ({@link
 * Topics#settings(String)}), and checks (and on request fixes) the settings of those that exist.
 */
final class FieldprofTopics implements AutoCloseable {
    private static final long TIMEOUT_MS = 30_000;

    private final Admin admin;
    private final PrintWriter out;

    /** What a topics command does with the cluster; returns the command's count of problems. */
    interface Action {
        int apply(FieldprofTopics topics)
                throws ExecutionException, InterruptedException, TimeoutException;
    }

    /**
     * Runs {@code action} against the cluster at {@code bootstrap}, printing to {@code out};
     * failures become one line naming the broker.
     */
    static int run(Properties client, PrintWriter out, Action action) {
        String bootstrap = client.getProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
        try (FieldprofTopics topics = new FieldprofTopics(client, out)) {
            int problems = action.apply(topics);
            out.flush();
            return problems;
        } catch (ExecutionException e) {
            throw KafkaClientProperties.failure(e.getCause(), client);
        } catch (TimeoutException e) {
            throw new CliFailure(
                    "kafka at " + bootstrap + " did not answer within " + TIMEOUT_MS / 1000 + " s",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliFailure("interrupted", e);
        }
    }

    private FieldprofTopics(Properties client, PrintWriter out) {
        Properties properties = new Properties();
        properties.putAll(client);
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT_MS);
        this.admin = Admin.create(properties);
        this.out = out;
    }

    /**
     * Creates the missing topics, reports each existing one as it is, and with {@code fix} sets the
     * settings that differ. Returns the number of topics whose settings still differ.
     */
    int createMissing(int partitions, short replicationFactor, boolean fix)
            throws ExecutionException, InterruptedException, TimeoutException {
        Set<String> existing = admin.listTopics().names().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        List<NewTopic> missing = new ArrayList<>();
        for (String topic : Topics.ALL) {
            if (!existing.contains(topic)) {
                missing.add(
                        new NewTopic(topic, partitions, replicationFactor)
                                .configs(Topics.settings(topic)));
            }
        }
        if (!missing.isEmpty()) {
            admin.createTopics(missing).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            awaitLeaders(missing.stream().map(NewTopic::name).toList());
            for (NewTopic topic : missing) {
                out.printf(
                        "created %s (%d partitions, %s)%n",
                        topic.name(), partitions, describe(Topics.settings(topic.name())));
            }
        }
        int differing = 0;
        for (String topic : Topics.ALL) {
            if (existing.contains(topic) && !check(topic, fix)) {
                differing++;
            }
        }
        return differing;
    }

    /** Reports every fieldprof topic's settings; returns how many differ or are missing. */
    int checkAll() throws ExecutionException, InterruptedException, TimeoutException {
        Set<String> existing = admin.listTopics().names().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        int wrong = 0;
        for (String topic : Topics.ALL) {
            if (!existing.contains(topic)) {
                out.printf("%s: missing%n", topic);
                wrong++;
            } else if (!check(topic, false)) {
                wrong++;
            }
        }
        return wrong;
    }

    /** Prints the topic's state; with {@code fix} sets what differs. True when all match now. */
    private boolean check(String topic, boolean fix)
            throws ExecutionException, InterruptedException, TimeoutException {
        Map<String, String> required = Topics.settings(topic);
        List<String> differences = TopicSettings.differences(admin, topic, required);
        if (differences.isEmpty()) {
            out.printf("%s: ok (%s)%n", topic, describe(required));
            return true;
        }
        if (!fix) {
            for (String difference : differences) {
                out.printf("%s: %s (fix with --fix)%n", topic, difference);
            }
            return false;
        }
        List<AlterConfigOp> ops = new ArrayList<>();
        required.forEach(
                (name, value) ->
                        ops.add(
                                new AlterConfigOp(
                                        new ConfigEntry(name, value), AlterConfigOp.OpType.SET)));
        admin.incrementalAlterConfigs(
                        Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic), ops))
                .all()
                .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        awaitSettings(topic, required);
        for (String difference : differences) {
            out.printf("%s: fixed, %s%n", topic, difference);
        }
        return true;
    }

    /**
     * Waits until the broker describes the topic with {@code required}: a change of settings
     * reaches the brokers' metadata after the call that made it returns.
     */
    private void awaitSettings(String topic, Map<String, String> required)
            throws ExecutionException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
        while (!TopicSettings.differences(admin, topic, required).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("the settings of " + topic + " did not change");
            }
            Thread.sleep(100); // polling interval of a real condition
        }
    }

    /** Waits until every partition has a leader, so that a producer started next finds them. */
    private void awaitLeaders(List<String> names)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
        while (true) {
            try {
                boolean led =
                        admin
                                .describeTopics(names)
                                .allTopicNames()
                                .get(TIMEOUT_MS, TimeUnit.MILLISECONDS)
                                .values()
                                .stream()
                                .flatMap(topic -> topic.partitions().stream())
                                .allMatch(p -> p.leader() != null && !p.leader().isEmpty());
                if (led) {
                    return;
                }
            } catch (ExecutionException e) {
                if (!(e.getCause()
                        instanceof
                        org.apache.kafka.common.errors.UnknownTopicOrPartitionException)) {
                    throw e;
                }
                // Not in the metadata yet: poll again.
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("partitions of " + names + " without a leader");
            }
            Thread.sleep(100); // polling interval of a real condition
        }
    }

    /**
     * Prints, for each binding, whether it exists; with {@code create} creates the missing ones.
     * Returns how many are still missing.
     */
    int grant(List<AclBinding> bindings, boolean create)
            throws ExecutionException, InterruptedException, TimeoutException {
        Set<AclBinding> existing = new HashSet<>();
        try {
            existing.addAll(
                    admin.describeAcls(AclBindingFilter.ANY)
                            .values()
                            .get(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SecurityDisabledException) {
                throw new CliFailure(
                        "the cluster has no authorizer (broker setting authorizer.class.name):"
                                + " ACLs cannot be set",
                        e.getCause());
            }
            throw e;
        }
        List<AclBinding> missing =
                bindings.stream().filter(binding -> !existing.contains(binding)).toList();
        if (create && !missing.isEmpty()) {
            admin.createAcls(missing).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        }
        for (AclBinding binding : bindings) {
            String state = !missing.contains(binding) ? "ok" : create ? "created" : "missing";
            out.printf("%s: %s%n", state, FieldprofAcls.describe(binding));
        }
        return create ? 0 : missing.size();
    }

    private static String describe(Map<String, String> settings) {
        List<String> parts = new ArrayList<>();
        new java.util.TreeMap<>(settings).forEach((name, value) -> parts.add(name + "=" + value));
        return String.join(", ", parts);
    }

    @Override
    public void close() {
        admin.close();
    }
}
