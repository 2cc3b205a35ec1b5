package dev.fieldprof.jobs.io;

import dev.fieldprof.schemas.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The least privileges of each party of fieldprof on a Kafka cluster with an authorizer, as ACL
 * bindings. Each role gets only the topics its part of the flow needs (docs/security.md,
 * "Principals and ACLs"); a credential pulled from one device can then publish reports and read
 * edge models, and nothing else: not other devices' path reports, not the models or estimates.
 */
public final class FieldprofAcls {
    /** The parties that talk to Kafka. */
    public enum Role {
        /**
         * A device: writes its reports (the shuffled mode's sealed ones to the shuffler's input),
         * reads the edge models it codes paths with.
         */
        DEVICE,
        /**
         * The analyst's Flink jobs: read reports, shuffled batches, programs and edge models, write
         * results. Never the shuffler's input: there each sealed report still names its device.
         */
        JOBS,
        /**
         * The shuffler job, run under another operator's account: reads the shuffler's input,
         * writes shuffled batches and its own dead letters, and nothing else (no estimates, no
         * reports in the clear). Its consumer groups and transactional ids start with {@link
         * #SHUFFLER_PREFIX}, the shuffler job's defaults.
         */
        SHUFFLER,
        /** Whoever creates topics, publishes program models and replays dead letters. */
        OPERATOR,
        /** A consumer of the results: estimates and dead letters (and the programs they name). */
        READER;

        /** The role's name on the command line. */
        public String option() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The default prefix of the shuffler's consumer groups and transactional ids, the shuffler
     * job's own defaults. The analyst's jobs' default prefix {@code fieldprof-} covers it: to keep
     * the analyst from fencing the shuffler's transactions, grant the jobs their own job's prefixes
     * ({@code fieldprof-frequency-estimation}, {@code fieldprof-path-model}) instead.
     */
    public static final String SHUFFLER_PREFIX = "fieldprof-shuffler";

    private static final String ANY_HOST = "*";

    private FieldprofAcls() {}

    /**
     * The bindings that allow {@code principal} (such as {@code User:device}) what {@code role}
     * needs and nothing more.
     *
     * @param groupPrefix prefix of the jobs' (or for {@link Role#SHUFFLER} the shuffler's) consumer
     *     group ids (their {@code --group-id})
     * @param transactionalIdPrefix prefix of the jobs' (or the shuffler's) transactional ids (their
     *     {@code --transactional-id-prefix}), for exactly-once output
     */
    public static List<AclBinding> bindings(
            Role role, String principal, String groupPrefix, String transactionalIdPrefix) {
        requirePrincipal(principal);
        Grants grants = new Grants(principal);
        switch (role) {
            case DEVICE -> {
                grants.topic(Topics.FREQUENCY_REPORTS, AclOperation.WRITE, AclOperation.DESCRIBE);
                grants.topic(Topics.SHUFFLER_INPUT, AclOperation.WRITE, AclOperation.DESCRIBE);
                grants.topic(Topics.PATH_REPORTS, AclOperation.WRITE, AclOperation.DESCRIBE);
                grants.topic(Topics.EDGE_MODELS, AclOperation.READ, AclOperation.DESCRIBE);
            }
            case JOBS -> {
                for (String input :
                        List.of(
                                Topics.FREQUENCY_REPORTS,
                                Topics.FREQUENCY_REPLAY,
                                Topics.SHUFFLED_REPORTS,
                                Topics.PATH_REPORTS,
                                Topics.PROGRAMS)) {
                    grants.topic(
                            input,
                            AclOperation.READ,
                            AclOperation.DESCRIBE,
                            AclOperation.DESCRIBE_CONFIGS);
                }
                grants.topic(
                        Topics.EDGE_MODELS,
                        AclOperation.READ,
                        AclOperation.WRITE,
                        AclOperation.DESCRIBE,
                        AclOperation.DESCRIBE_CONFIGS);
                for (String output : List.of(Topics.ESTIMATES, Topics.DEAD_LETTERS)) {
                    grants.topic(
                            output,
                            AclOperation.WRITE,
                            AclOperation.DESCRIBE,
                            AclOperation.DESCRIBE_CONFIGS);
                }
                grants.groupAndTransactions(groupPrefix, transactionalIdPrefix);
            }
            case SHUFFLER -> {
                grants.topic(
                        Topics.SHUFFLER_INPUT,
                        AclOperation.READ,
                        AclOperation.DESCRIBE,
                        AclOperation.DESCRIBE_CONFIGS);
                grants.topic(
                        Topics.SHUFFLED_REPORTS,
                        AclOperation.WRITE,
                        AclOperation.DESCRIBE,
                        AclOperation.DESCRIBE_CONFIGS);
                // Its own dead letters: they keep device ids with the sealed reports. Its
                // operator reads them with this login; no other party may.
                grants.topic(
                        Topics.SHUFFLER_DEAD_LETTERS,
                        AclOperation.WRITE,
                        AclOperation.READ,
                        AclOperation.DESCRIBE,
                        AclOperation.DESCRIBE_CONFIGS);
                grants.groupAndTransactions(groupPrefix, transactionalIdPrefix);
            }
            case OPERATOR -> {
                grants.prefixed(
                        ResourceType.TOPIC,
                        "fieldprof.",
                        AclOperation.CREATE,
                        AclOperation.DESCRIBE,
                        AclOperation.DESCRIBE_CONFIGS,
                        AclOperation.ALTER_CONFIGS);
                grants.topic(Topics.PROGRAMS, AclOperation.WRITE, AclOperation.READ);
                // Replaying dead letters: read the letters and which models are published,
                // re-submit their reports and see what
                // was re-submitted before. Not the reports topic: a letter that keeps no bytes
                // (LATE) is replayed only with a login that may read reports.
                grants.topic(Topics.DEAD_LETTERS, AclOperation.READ);
                grants.topic(Topics.FREQUENCY_REPLAY, AclOperation.READ, AclOperation.WRITE);
            }
            case READER -> {
                for (String result :
                        List.of(Topics.ESTIMATES, Topics.DEAD_LETTERS, Topics.PROGRAMS)) {
                    grants.topic(result, AclOperation.READ, AclOperation.DESCRIBE);
                }
            }
        }
        return List.copyOf(grants.bindings);
    }

    /** One line for a person: {@code allow User:device WRITE on topic fieldprof.reports.paths}. */
    public static String describe(AclBinding binding) {
        ResourcePattern pattern = binding.pattern();
        return "allow "
                + binding.entry().principal()
                + " "
                + binding.entry().operation()
                + " on "
                + pattern.resourceType().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                + " "
                + pattern.name()
                + (pattern.patternType() == PatternType.PREFIXED ? "*" : "");
    }

    private static void requirePrincipal(String principal) {
        int colon = principal == null ? -1 : principal.indexOf(':');
        if (colon <= 0 || colon == principal.length() - 1) {
            throw new IllegalArgumentException(
                    "a principal is TYPE:NAME such as User:device, got " + principal);
        }
    }

    private static String requirePrefix(String prefix, String what) {
        if (prefix == null || prefix.isBlank()) {
            throw new IllegalArgumentException("the jobs' " + what + " prefix must not be blank");
        }
        return prefix;
    }

    /** Accumulates allow-bindings of one principal from any host. */
    private static final class Grants {
        private final String principal;
        private final List<AclBinding> bindings = new ArrayList<>();

        Grants(String principal) {
            this.principal = principal;
        }

        void topic(String topic, AclOperation... operations) {
            add(new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL), operations);
        }

        /** The consumer groups and exactly-once transactions of a job. */
        void groupAndTransactions(String groupPrefix, String transactionalIdPrefix) {
            prefixed(
                    ResourceType.GROUP,
                    requirePrefix(groupPrefix, "group"),
                    AclOperation.READ,
                    AclOperation.DESCRIBE);
            prefixed(
                    ResourceType.TRANSACTIONAL_ID,
                    requirePrefix(transactionalIdPrefix, "transactional id"),
                    AclOperation.WRITE,
                    AclOperation.DESCRIBE);
        }

        void prefixed(ResourceType type, String prefix, AclOperation... operations) {
            add(new ResourcePattern(type, prefix, PatternType.PREFIXED), operations);
        }

        private void add(ResourcePattern pattern, AclOperation... operations) {
            for (AclOperation operation : operations) {
                bindings.add(
                        new AclBinding(
                                pattern,
                                new AccessControlEntry(
                                        principal, ANY_HOST, operation, AclPermissionType.ALLOW)));
            }
        }
    }
}
