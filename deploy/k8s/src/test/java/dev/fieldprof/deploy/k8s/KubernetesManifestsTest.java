package dev.fieldprof.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.jobs.io.FieldprofAcls;
import dev.fieldprof.jobs.io.StateBackends;
import dev.fieldprof.jobs.paths.PathJobOptions;
import dev.fieldprof.jobs.paths.PathModelJob;
import dev.fieldprof.schemas.Topics;
import java.io.IOException;
import java.io.StringReader;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manifests of deploy/k8s: every custom resource valid under the published CRD schema of its
 * operator (Flink Kubernetes operator, Strimzi), checked as strictly as an API server with strict
 * field validation checks it ({@link CrdSchemaConverter}, {@link CelRules}), the one core resource
 * under Kubernetes' API model ({@link CoreResources}); and what they say agrees with the code they
 * deploy: the jobs' arguments parse with the jobs' own option parsers, the topics are the ones and
 * have the settings {@code fieldprof topics create} gives them, and checkpoints and metrics are
 * configured as deploy/conf configures the local cluster.
 */
class KubernetesManifestsTest {
    /** This module's directory, deploy/k8s (Maven runs tests there). */
    private static final Path K8S = Path.of("").toAbsolutePath();

    private static final Path DEPLOY = K8S.getParent();
    private static final String KAFKA_CLUSTER = "fieldprof";
    private static final String FREQUENCY = "fieldprof-frequency-estimation";
    private static final String PATHS = "fieldprof-path-models";
    private static final String METRICS_PORT = "9249";
    private static final String JOBS_KAFKA_CLIENT = "fieldprof-jobs-kafka";

    private static CustomResourceSchemas schemas;
    private static List<JsonNode> manifests;

    @BeforeAll
    static void load() throws IOException, InterruptedException {
        schemas = new CustomResourceSchemas();
        FlinkOperatorCrds.addTo(schemas);
        StrimziCrds.addTo(schemas, K8S.resolve("target/strimzi-crds-" + StrimziCrds.version()));
        manifests = Manifests.inDirectory(K8S);
    }

    @Test
    void schemasAreThoseOfThePinnedOperatorReleases() {
        assertThat(FlinkOperatorCrds.version()).isEqualTo("1.10.0");
        assertThat(StrimziCrds.version()).isEqualTo("1.2.0");
        assertThat(schemas.kinds())
                .containsExactly(
                        "flink.apache.org/v1beta1 FlinkDeployment",
                        "flink.apache.org/v1beta1 FlinkSessionJob",
                        "kafka.strimzi.io/v1 Kafka",
                        "kafka.strimzi.io/v1 KafkaTopic",
                        "kafka.strimzi.io/v1 KafkaUser",
                        "kafka.strimzi.io/v1 KafkaNodePool");
        // The one amendment of a published schema: the Flink versions operator 1.13.0 added.
        assertThat(FlinkOperatorCrds.publishedFlinkVersions())
                .containsExactly(
                        "v1_13", "v1_14", "v1_15", "v1_16", "v1_17", "v1_18", "v1_19", "v1_20");
    }

    @Test
    void deployK8sHoldsTheClusterTheTopicsAndBothJobs() {
        assertThat(manifests.stream().map(KubernetesManifestsTest::describe))
                .containsExactly(
                        "v1 PersistentVolumeClaim fieldprof-flink-data",
                        "flink.apache.org/v1beta1 FlinkDeployment " + FREQUENCY,
                        "v1 ConfigMap " + JOBS_KAFKA_CLIENT,
                        "kafka.strimzi.io/v1 KafkaNodePool controllers",
                        "kafka.strimzi.io/v1 KafkaNodePool brokers",
                        "kafka.strimzi.io/v1 Kafka " + KAFKA_CLUSTER,
                        "kafka.strimzi.io/v1 KafkaUser fieldprof-device",
                        "kafka.strimzi.io/v1 KafkaUser fieldprof-jobs",
                        "kafka.strimzi.io/v1 KafkaUser fieldprof-shuffler",
                        "kafka.strimzi.io/v1 KafkaUser fieldprof-operator",
                        "kafka.strimzi.io/v1 KafkaUser fieldprof-reader",
                        "flink.apache.org/v1beta1 FlinkDeployment " + PATHS,
                        "kafka.strimzi.io/v1 KafkaTopic fieldprof.programs",
                        "kafka.strimzi.io/v1 KafkaTopic fieldprof.reports.frequency",
                        "kafka.strimzi.io/v1 KafkaTopic fieldprof.reports.frequency.replay",
                        "kafka.strimzi.io/v1 KafkaTopic fieldprof.shuffler.input",
                        "kafka.strimzi.io/v1 KafkaTopic fieldprof.reports.shuffled",
                        "kafka.strimzi.io/v1 KafkaTopic fieldprof.reports.paths",
                        "kafka.strimzi.io/v1 KafkaTopic fieldprof.estimates",
                        "kafka.strimzi.io/v1 KafkaTopic fieldprof.models.edges",
                        "kafka.strimzi.io/v1 KafkaTopic fieldprof.dead-letters",
                        "kafka.strimzi.io/v1 KafkaTopic fieldprof.shuffler.dead-letters");
    }

    @Test
    void everyManifestIsValidUnderItsSchema() {
        List<String> problems = new ArrayList<>();
        int customResources = 0;
        for (JsonNode manifest : manifests) {
            if (CoreResources.isCore(manifest)) {
                problems.addAll(CoreResources.validate(manifest));
            } else {
                problems.addAll(schemas.validate(manifest));
                customResources++;
            }
        }
        assertThat(problems).isEmpty();
        assertThat(customResources).isEqualTo(20);
    }

    @Test
    void rejectsAMisspelledFieldOfTheVolumeClaim() throws IOException {
        JsonNode broken = edited("flink-storage.yaml", "  accessModes:", "  accessMode:");
        assertThat(CoreResources.validate(broken))
                .containsExactly(
                        "PersistentVolumeClaim fieldprof-flink-data: unknown field"
                                + " spec.accessMode");
    }

    @Test
    void rejectsAMisspelledFieldOfAFlinkDeployment() throws IOException {
        JsonNode broken =
                edited(
                        "frequency-estimation.yaml",
                        "    upgradeMode: savepoint",
                        "    upgradeMod: savepoint");
        assertThat(schemas.validate(broken))
                .containsExactly(
                        "FlinkDeployment "
                                + FREQUENCY
                                + ": /spec/job: property 'upgradeMod' is not"
                                + " defined in the schema and the schema does not allow additional"
                                + " properties");
    }

    @Test
    void rejectsAMisspelledFieldInThePodTemplate() throws IOException {
        JsonNode broken =
                edited(
                        "path-models.yaml",
                        "              containerPort: 9249",
                        "              containerPrt: 9249");
        assertThat(schemas.validate(broken))
                .containsExactly(
                        "FlinkDeployment "
                                + PATHS
                                + ": /spec/podTemplate/spec/containers/0/ports/0: property"
                                + " 'containerPrt' is not defined in the schema and the schema does"
                                + " not allow additional properties");
    }

    @Test
    void rejectsANumberWhereFlinkConfigurationTakesStrings() throws IOException {
        JsonNode broken =
                edited(
                        "frequency-estimation.yaml",
                        "taskmanager.numberOfTaskSlots: \"2\"",
                        "taskmanager.numberOfTaskSlots: 2");
        assertThat(schemas.validate(broken))
                .containsExactly(
                        "FlinkDeployment "
                                + FREQUENCY
                                + ": /spec/flinkConfiguration"
                                + "/taskmanager.numberOfTaskSlots: integer found, string expected");
    }

    @Test
    void rejectsAFlinkVersionTheOperatorDoesNotKnow() throws IOException {
        JsonNode broken =
                edited("frequency-estimation.yaml", "flinkVersion: v2_2", "flinkVersion: v2_3");
        assertThat(schemas.validate(broken))
                .containsExactly(
                        "FlinkDeployment "
                                + FREQUENCY
                                + ": /spec/flinkVersion: does not have a value"
                                + " in the enumeration [\"v1_13\", \"v1_14\", \"v1_15\", \"v1_16\","
                                + " \"v1_17\", \"v1_18\", \"v1_19\", \"v1_20\", \"v2_0\", \"v2_1\","
                                + " \"v2_2\"]");
    }

    @Test
    void rejectsAnUnknownListenerTypeAndAMisspelledTopicField() throws IOException {
        JsonNode kafka =
                edited(
                        "kafka.yaml",
                        "        type: internal\n        tls: false",
                        "        type: internl\n        tls: false",
                        2);
        assertThat(schemas.validate(kafka))
                .containsExactly(
                        "Kafka "
                                + KAFKA_CLUSTER
                                + ": /spec/kafka/listeners/0/type: does not have a value in the"
                                + " enumeration [\"internal\", \"route\", \"tlsroute\","
                                + " \"loadbalancer\", \"nodeport\", \"ingress\", \"cluster-ip\"]");
        JsonNode topic = edited("topics.yaml", "  replicas: 3", "  replica: 3", 0);
        assertThat(schemas.validate(topic))
                .containsExactly(
                        "KafkaTopic fieldprof.programs: /spec: property 'replica' is not defined in"
                            + " the schema and the schema does not allow additional properties");
    }

    @Test
    void rejectsWhatOnlyStrimzisCelRulesForbid() throws IOException {
        // validityDays is declared in the schema, but Strimzi's CEL rule allows it with tls only.
        JsonNode user =
                edited(
                        "kafka.yaml",
                        "  authentication:\n    type: scram-sha-512\n",
                        "  authentication:\n    type: scram-sha-512\n    validityDays: 30\n",
                        3);
        assertThat(user.path("spec").path("authentication").path("validityDays").asInt())
                .isEqualTo(30);
        assertThat(schemas.validate(user))
                .containsExactly(
                        "KafkaUser fieldprof-device: /spec/authentication: 'validityDays' and"
                                + " 'renewalDays' can be configured only with 'type: tls'");
    }

    @Test
    void acceptsAnyBrokerSettingWhereStrimziPreservesUnknownFields() throws IOException {
        JsonNode kafka =
                edited(
                        "kafka.yaml",
                        "      min.insync.replicas: 2",
                        "      min.insync.replicas: 2\n      log.retention.hours: 72",
                        2);
        assertThat(
                        kafka.path("spec")
                                .path("kafka")
                                .path("config")
                                .path("log.retention.hours")
                                .asInt())
                .isEqualTo(72);
        assertThat(schemas.validate(kafka)).isEmpty();
    }

    @Test
    void jobArgumentsParseWithTheJobsOwnOptions() throws Exception {
        JsonNode frequency = deployment(FREQUENCY).path("spec").path("job");
        assertThat(frequency.path("entryClass").asText())
                .isEqualTo(FrequencyEstimationJob.class.getName());
        assertIsMain(frequency.path("entryClass").asText());
        FrequencyJobOptions frequencyOptions = FrequencyJobOptions.parse(args(frequency));
        assertThat(frequencyOptions.bootstrap()).isEqualTo(plainBootstrap());
        assertThat(frequencyOptions.checkpointInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(frequencyOptions.transactionTimeout()).isEqualTo(Duration.ofMinutes(10));
        // Empty: the job checkpoints into the cluster's execution.checkpointing.dir.
        assertThat(frequencyOptions.checkpointDir()).isEmpty();
        assertThat(frequencyOptions.stateBackend()).isEqualTo(StateBackends.CLUSTER);
        assertThat(frequencyOptions.reportsTopic()).isEqualTo(Topics.FREQUENCY_REPORTS);

        JsonNode paths = deployment(PATHS).path("spec").path("job");
        assertThat(paths.path("entryClass").asText()).isEqualTo(PathModelJob.class.getName());
        assertIsMain(paths.path("entryClass").asText());
        PathJobOptions pathOptions = PathJobOptions.parse(args(paths));
        assertThat(pathOptions.bootstrap()).isEqualTo(plainBootstrap());
        assertThat(pathOptions.checkpointInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(pathOptions.transactionTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(pathOptions.checkpointDir()).isEmpty();
        assertThat(pathOptions.stateBackend()).isEqualTo(StateBackends.CLUSTER);
        assertThat(pathOptions.reportsTopic()).isEqualTo(Topics.PATH_REPORTS);

        // Two exactly-once jobs on one cluster: their transactional ids must not collide.
        assertThat(frequencyOptions.transactionalIdPrefix())
                .isEqualTo("fieldprof-frequency-estimation");
        assertThat(pathOptions.transactionalIdPrefix()).isEqualTo("fieldprof-path-model");
    }

    @Test
    void aMisspelledJobArgumentFailsTheJobsParser() {
        JsonNode job = deployment(FREQUENCY).path("spec").path("job");
        String[] args = args(job);
        args[0] = "--bootstrapp";
        assertThatThrownBy(() -> FrequencyJobOptions.parse(args))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "unknown option --bootstrapp; known: --bootstrap, --kafka-properties,"
                                + " --reports-topic,");
    }

    @Test
    void transactionsStayBelowTheBrokersLimit() {
        long brokerMax =
                kafka().path("spec")
                        .path("kafka")
                        .path("config")
                        .path("transaction.max.timeout.ms")
                        .asLong();
        assertThat(brokerMax).isEqualTo(900_000L);
        for (String name : List.of(FREQUENCY, PATHS)) {
            JsonNode job = deployment(name).path("spec").path("job");
            Duration timeout =
                    name.equals(FREQUENCY)
                            ? FrequencyJobOptions.parse(args(job)).transactionTimeout()
                            : PathJobOptions.parse(args(job)).transactionTimeout();
            assertThat(timeout.toMillis()).as(name).isLessThan(brokerMax);
        }
    }

    @Test
    void topicsAreTheOnesTopicsCreateMakesWithItsSettings() {
        Map<String, Map<String, String>> settings = new LinkedHashMap<>();
        JsonNode kafkaConfig = kafka().path("spec").path("kafka").path("config");
        for (JsonNode topic : ofKind("KafkaTopic")) {
            String name = topic.path("metadata").path("name").asText();
            Map<String, String> config = new TreeMap<>();
            topic.path("spec")
                    .path("config")
                    .properties()
                    .forEach(e -> config.put(e.getKey(), e.getValue().asText()));
            settings.put(name, config);
            assertThat(topic.path("spec").has("topicName")).as(name).isFalse();
            assertThat(topic.path("metadata").path("labels").path("strimzi.io/cluster").asText())
                    .as(name)
                    .isEqualTo(KAFKA_CLUSTER);
            // topics create gives every topic the same --partitions and --replication-factor.
            assertThat(topic.path("spec").path("partitions").asInt()).as(name).isEqualTo(8);
            assertThat(topic.path("spec").path("replicas").asInt())
                    .as(name)
                    .isEqualTo(kafkaConfig.path("default.replication.factor").asInt())
                    .isGreaterThan(kafkaConfig.path("min.insync.replicas").asInt());
        }
        assertThat(settings.keySet()).containsExactlyElementsOf(Topics.ALL);
        for (String topic : Topics.ALL) {
            assertThat(settings.get(topic))
                    .as(topic)
                    .isEqualTo(new TreeMap<>(Topics.settings(topic)));
        }
        // Every source subtask of a job gets a partition of its reports.
        for (String name : List.of(FREQUENCY, PATHS)) {
            assertThat(deployment(name).path("spec").path("job").path("parallelism").asInt())
                    .isLessThanOrEqualTo(8);
        }
    }

    /**
     * The brokers authorize by ACLs, and each KafkaUser holds exactly the ACLs {@code fieldprof
     * topics acls} grants its role (principal {@code User:<name>}, as Strimzi names SCRAM users).
     */
    @Test
    void eachKafkaUserHasExactlyTheAclsOfItsRole() {
        assertThat(kafka().path("spec").path("kafka").path("authorization").path("type").asText())
                .isEqualTo("simple");
        Map<String, FieldprofAcls.Role> roles = new LinkedHashMap<>();
        for (FieldprofAcls.Role role : FieldprofAcls.Role.values()) {
            roles.put("fieldprof-" + role.option(), role);
        }
        assertThat(ofKind("KafkaUser").stream().map(u -> u.path("metadata").path("name").asText()))
                .containsExactlyElementsOf(roles.keySet());
        for (JsonNode user : ofKind("KafkaUser")) {
            String name = user.path("metadata").path("name").asText();
            assertThat(user.path("spec").path("authentication").path("type").asText())
                    .isEqualTo("scram-sha-512");
            Set<String> manifest = new TreeSet<>();
            for (JsonNode acl : user.path("spec").path("authorization").path("acls")) {
                JsonNode resource = acl.path("resource");
                for (JsonNode operation : acl.path("operations")) {
                    manifest.add(
                            resource.path("type").asText().toLowerCase(Locale.ROOT)
                                    + " "
                                    + resource.path("name").asText()
                                    + (resource.path("patternType").asText().equals("prefix")
                                            ? "*"
                                            : "")
                                    + " "
                                    + operation.asText().toLowerCase(Locale.ROOT));
                }
            }
            Set<String> granted = new TreeSet<>();
            // The shuffler's groups and transactions are its own, apart from the analyst's jobs.
            String prefix =
                    roles.get(name) == FieldprofAcls.Role.SHUFFLER
                            ? FieldprofAcls.SHUFFLER_PREFIX
                            : "fieldprof-";
            for (AclBinding binding :
                    FieldprofAcls.bindings(roles.get(name), "User:" + name, prefix, prefix)) {
                granted.add(
                        binding.pattern()
                                        .resourceType()
                                        .name()
                                        .toLowerCase(Locale.ROOT)
                                        .replace("_", "")
                                + " "
                                + binding.pattern().name()
                                + (binding.pattern().patternType() == PatternType.PREFIXED
                                        ? "*"
                                        : "")
                                + " "
                                + binding.entry()
                                        .operation()
                                        .name()
                                        .toLowerCase(Locale.ROOT)
                                        .replace("_", ""));
            }
            assertThat(manifest).as(name).isEqualTo(granted);
        }
    }

    /**
     * The jobs log in as fieldprof-jobs: both FlinkDeployments pass the ConfigMap's properties
     * file, mount it and the user's Secret where the file says, and Kafka's client reads the login
     * from the Secret's file through the DirectoryConfigProvider the file names.
     */
    @Test
    void theJobsLogInWithTheirUsersSecretThroughAConfigProvider(@TempDir Path secret)
            throws IOException {
        JsonNode configMap =
                manifests.stream()
                        .filter(m -> m.path("kind").asText().equals("ConfigMap"))
                        .filter(
                                m ->
                                        m.path("metadata")
                                                .path("name")
                                                .asText()
                                                .equals(JOBS_KAFKA_CLIENT))
                        .findFirst()
                        .orElseThrow();
        Properties client = new Properties();
        client.load(new StringReader(configMap.path("data").path("client.properties").asText()));
        String jaasPlaceholder = client.getProperty("sasl.jaas.config");
        Matcher placeholder =
                Pattern.compile("\\$\\{dir:(.+):sasl\\.jaas\\.config}").matcher(jaasPlaceholder);
        assertThat(placeholder.matches()).as(jaasPlaceholder).isTrue();
        String secretDir = placeholder.group(1);
        for (String name : List.of(FREQUENCY, PATHS)) {
            JsonNode spec = deployment(name).path("spec");
            String[] args = args(spec.path("job"));
            String propertiesFile =
                    name.equals(FREQUENCY)
                            ? FrequencyJobOptions.parse(args).kafkaProperties()
                            : PathJobOptions.parse(args).kafkaProperties();
            Map<String, String> mounts = new LinkedHashMap<>();
            JsonNode pod = spec.path("podTemplate").path("spec");
            for (JsonNode mount : pod.path("containers").get(0).path("volumeMounts")) {
                mounts.put(mount.path("name").asText(), mount.path("mountPath").asText());
            }
            for (JsonNode volume : pod.path("volumes")) {
                String mountPath = mounts.get(volume.path("name").asText());
                if (volume.has("configMap")) {
                    assertThat(volume.path("configMap").path("name").asText())
                            .isEqualTo(JOBS_KAFKA_CLIENT);
                    assertThat(mountPath + "/client.properties").isEqualTo(propertiesFile);
                } else if (volume.has("secret")) {
                    assertThat(volume.path("secret").path("secretName").asText())
                            .isEqualTo("fieldprof-jobs");
                    assertThat(mountPath).isEqualTo(secretDir);
                }
            }
        }
        // Strimzi's Secret holds the login as a key; mounted, that is a file of that name.
        String login =
                "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"fieldprof-jobs\" password=\"s3cret\";";
        Files.writeString(secret.resolve("sasl.jaas.config"), login);
        Properties resolvable = new Properties();
        resolvable.putAll(client);
        resolvable.put("sasl.jaas.config", "${dir:" + secret + ":sasl.jaas.config}");
        resolvable.put("bootstrap.servers", "127.0.0.1:1");
        resolvable.put("key.serializer", ByteArraySerializer.class.getName());
        resolvable.put("value.serializer", ByteArraySerializer.class.getName());
        ProducerConfig config = new ProducerConfig(resolvable);
        assertThat(config.getPassword("sasl.jaas.config").value()).isEqualTo(login);
    }

    @Test
    void strimziResourcesBelongToTheOneCluster() {
        for (String kind : List.of("KafkaNodePool", "KafkaUser", "KafkaTopic")) {
            for (JsonNode resource : ofKind(kind)) {
                assertThat(
                                resource.path("metadata")
                                        .path("labels")
                                        .path("strimzi.io/cluster")
                                        .asText())
                        .as(describe(resource))
                        .isEqualTo(KAFKA_CLUSTER);
            }
        }
        List<String> roles = new ArrayList<>();
        ofKind("KafkaNodePool")
                .forEach(
                        pool ->
                                pool.path("spec")
                                        .path("roles")
                                        .forEach(role -> roles.add(role.asText())));
        assertThat(roles).containsExactly("controller", "broker");
    }

    @Test
    void checkpointsAndMetricsAreConfiguredAsInDeployConf() throws IOException {
        Map<String, String> deployConf = deployConf();
        String firstDeployMetricsPort = deployMetricsPorts().split("-")[0];
        assertThat(firstDeployMetricsPort).isEqualTo(METRICS_PORT);
        JsonNode claim = ofKind("PersistentVolumeClaim").get(0);
        assertThat(claim.path("spec").path("accessModes").toString())
                .isEqualTo("[\"ReadWriteMany\"]");

        for (String name : List.of(FREQUENCY, PATHS)) {
            JsonNode spec = deployment(name).path("spec");
            JsonNode conf = spec.path("flinkConfiguration");
            for (String key :
                    List.of(
                            "state.backend.type",
                            "execution.checkpointing.incremental",
                            "metrics.reporter.prom.factory.class")) {
                assertThat(conf.path(key).asText())
                        .as(name + " " + key)
                        .isEqualTo(deployConf.get(key));
            }
            assertThat(deployConf.get("state.backend.type")).isEqualTo("rocksdb");
            String data = "file:///flink-data/" + name + "/";
            assertThat(conf.path("execution.checkpointing.dir").asText())
                    .isEqualTo(data + "checkpoints");
            assertThat(conf.path("execution.checkpointing.savepoint-dir").asText())
                    .isEqualTo(data + "savepoints");
            assertThat(conf.path("high-availability.storageDir").asText()).isEqualTo(data + "ha");
            assertThat(conf.path("high-availability.type").asText()).isEqualTo("kubernetes");
            assertThat(spec.path("job").path("upgradeMode").asText()).isEqualTo("savepoint");

            // /flink-data is the shared claim in every pod.
            JsonNode pod = spec.path("podTemplate");
            JsonNode container = pod.path("spec").path("containers").get(0);
            assertThat(container.path("name").asText()).isEqualTo("flink-main-container");
            assertThat(container.path("volumeMounts").get(0).toString())
                    .isEqualTo("{\"name\":\"flink-data\",\"mountPath\":\"/flink-data\"}");
            assertThat(pod.path("spec").path("volumes").get(0).toString())
                    .isEqualTo(
                            "{\"name\":\"flink-data\",\"persistentVolumeClaim\":{\"claimName\":\""
                                    + claim.path("metadata").path("name").asText()
                                    + "\"}}");

            // The reporter's port is the container's metrics port and the one Prometheus scrapes.
            assertThat(conf.path("metrics.reporter.prom.port").asText()).isEqualTo(METRICS_PORT);
            assertThat(container.path("ports").toString())
                    .isEqualTo(
                            "[{\"name\":\"metrics\",\"containerPort\":"
                                    + METRICS_PORT
                                    + ",\"protocol\":\"TCP\"}]");
            JsonNode annotations = pod.path("metadata").path("annotations");
            assertThat(annotations.path("prometheus.io/scrape").asText()).isEqualTo("true");
            assertThat(annotations.path("prometheus.io/port").asText()).isEqualTo(METRICS_PORT);
            assertThat(annotations.path("prometheus.io/path").asText()).isEqualTo("/metrics");
        }
    }

    @Test
    void imageIsTheFlinkReleaseOfTheBuildWithTheJobJarAtTheJarUri() throws IOException {
        String flink = EnvironmentInformation.getVersion();
        assertThat(flink).isEqualTo("2.2.1");
        String dockerfile = Files.readString(K8S.resolve("Dockerfile"));
        assertThat(single(dockerfile, "(?m)^FROM (\\S+)$")).isEqualTo("flink:" + flink + "-java17");
        String jar =
                single(dockerfile, "(?m)^COPY jobs/target/fieldprof-jobs-\\*-job\\.jar (\\S+)$");
        String[] release = flink.split("\\.");
        for (String name : List.of(FREQUENCY, PATHS)) {
            JsonNode spec = deployment(name).path("spec");
            assertThat(spec.path("flinkVersion").asText())
                    .isEqualTo("v" + release[0] + "_" + release[1]);
            assertThat(spec.path("job").path("jarURI").asText()).isEqualTo("local://" + jar);
            assertThat(spec.path("image").asText())
                    .isEqualTo(
                            "REGISTRY/fieldprof-jobs:" + System.getProperty("fieldprof.version"));
        }
    }

    @Test
    void kafkaIsTheReleaseLineOfTheClientsTheJobsUse() {
        String[] clients = AppInfoParser.getVersion().split("\\.");
        assertThat(kafka().path("spec").path("kafka").path("version").asText())
                .startsWith(clients[0] + "." + clients[1] + ".");
        assertThat(kafka().path("spec").path("kafka").path("metadataVersion").asText())
                .startsWith(clients[0] + "." + clients[1] + "-");
    }

    /**
     * The in-cluster listener's address inside the namespace (Strimzi's bootstrap service): no TLS,
     * but SCRAM logins, as the jobs' client settings say.
     */
    private static String plainBootstrap() {
        for (JsonNode listener : kafka().path("spec").path("kafka").path("listeners")) {
            if (!listener.path("tls").asBoolean()) {
                assertThat(listener.path("authentication").path("type").asText())
                        .as("the in-cluster listener authenticates")
                        .isEqualTo("scram-sha-512");
                return KAFKA_CLUSTER + "-kafka-bootstrap:" + listener.path("port").asInt();
            }
        }
        throw new AssertionError("kafka.yaml has no plain listener");
    }

    private static void assertIsMain(String className)
            throws ClassNotFoundException, NoSuchMethodException {
        Method main = Class.forName(className).getMethod("main", String[].class);
        assertThat(Modifier.isStatic(main.getModifiers())).as(className).isTrue();
    }

    private static String[] args(JsonNode job) {
        List<String> args = new ArrayList<>();
        job.path("args").forEach(arg -> args.add(arg.asText()));
        return args.toArray(String[]::new);
    }

    /** deploy/conf/config.yaml as flat Flink keys, its {@code @NAME@} placeholders filled. */
    private static Map<String, String> deployConf() throws IOException {
        String template = Files.readString(DEPLOY.resolve("conf/config.yaml"));
        JsonNode conf = Manifests.read(template.replaceAll("@[A-Z_]+@", "placeholder")).get(0);
        Map<String, String> flat = new TreeMap<>();
        flatten("", conf, flat);
        return flat;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> into) {
        if (node.isObject()) {
            node.properties()
                    .forEach(
                            e ->
                                    flatten(
                                            prefix.isEmpty()
                                                    ? e.getKey()
                                                    : prefix + "." + e.getKey(),
                                            e.getValue(),
                                            into));
        } else {
            into.put(prefix, node.asText());
        }
    }

    /** The default of FLINK_METRICS_PORTS in deploy/lib.sh. */
    private static String deployMetricsPorts() throws IOException {
        return single(
                Files.readString(DEPLOY.resolve("lib.sh")),
                "FLINK_METRICS_PORTS=\"\\$\\{FLINK_METRICS_PORTS:-([0-9-]+)}\"");
    }

    private static String single(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        assertThat(matcher.find()).as(regex).isTrue();
        String value = matcher.group(1);
        assertThat(matcher.find()).as("a second match of " + regex).isFalse();
        return value;
    }

    /** Document {@code index} of {@code file} after its first {@code from} became {@code to}. */
    private static JsonNode edited(String file, String from, String to, int index)
            throws IOException {
        String text = Files.readString(K8S.resolve(file));
        assertThat(text).contains(from);
        return Manifests.read(text.replaceFirst(Pattern.quote(from), Matcher.quoteReplacement(to)))
                .get(index);
    }

    private static JsonNode edited(String file, String from, String to) throws IOException {
        return edited(file, from, to, 0);
    }

    private static JsonNode deployment(String name) {
        return ofKind("FlinkDeployment").stream()
                .filter(d -> d.path("metadata").path("name").asText().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no FlinkDeployment " + name));
    }

    private static JsonNode kafka() {
        return ofKind("Kafka").get(0);
    }

    private static List<JsonNode> ofKind(String kind) {
        return manifests.stream().filter(m -> m.path("kind").asText().equals(kind)).toList();
    }

    private static String describe(JsonNode manifest) {
        return manifest.path("apiVersion").asText()
                + " "
                + manifest.path("kind").asText()
                + " "
                + manifest.path("metadata").path("name").asText();
    }
}
