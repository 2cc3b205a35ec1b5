package dev.fieldprof.deploy.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The CRDs of the Flink Kubernetes operator as its {@code flink-kubernetes-operator-api} jar
 * publishes them (written by the fabric8 CRD generator into {@code META-INF/fabric8/}).
 *
 * <p>Maven Central serves that jar here up to 1.10.0, whose {@code spec.flinkVersion} enum ends at
 * {@code v1_20}; the jobs run on Flink 2.2, which the operator runs from 1.13.0 on. The one
 * amendment, {@link #withFlinkVersionsUpTo22}, adds the three values that 1.13.0 added to that
 * enum. Outside the pod template the FlinkDeployment schema of 1.13.0 differs from 1.10.0's only
 * there, in a new optional {@code job.autoscalerResetNonce} and in a {@code flinkConfiguration}
 * that also takes nested YAML (1.10.0 takes string values only, so 1.10.0 is the stricter check).
 */
final class FlinkOperatorCrds {
    static final String FLINK_DEPLOYMENTS =
            "META-INF/fabric8/flinkdeployments.flink.apache.org-v1.yml";
    static final String FLINK_SESSION_JOBS =
            "META-INF/fabric8/flinksessionjobs.flink.apache.org-v1.yml";

    /** {@code spec.flinkVersion} of FlinkDeployment as the published 1.10.0 CRD has it. */
    static final List<String> PUBLISHED_FLINK_VERSIONS =
            List.of("v1_13", "v1_14", "v1_15", "v1_16", "v1_17", "v1_18", "v1_19", "v1_20");

    /** What operator 1.13.0 added to {@code spec.flinkVersion}. */
    static final List<String> ADDED_FLINK_VERSIONS = List.of("v2_0", "v2_1", "v2_2");

    private FlinkOperatorCrds() {}

    /** The version of the operator API jar on the class path. */
    static String version() {
        Properties properties = new Properties();
        try (InputStream in =
                resource(
                        "META-INF/maven/org.apache.flink/flink-kubernetes-operator-api/pom.properties")) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }

    /** Adds FlinkDeployment (amended) and FlinkSessionJob to {@code schemas}. */
    static void addTo(CustomResourceSchemas schemas) {
        schemas.add(
                Manifests.readOne(resource(FLINK_DEPLOYMENTS)),
                FlinkOperatorCrds::withFlinkVersionsUpTo22);
        schemas.add(Manifests.readOne(resource(FLINK_SESSION_JOBS)));
    }

    /** The published {@code spec.flinkVersion} values of FlinkDeployment, in order. */
    static List<String> publishedFlinkVersions() {
        JsonNode crd = Manifests.readOne(resource(FLINK_DEPLOYMENTS));
        List<String> values = new ArrayList<>();
        flinkVersionEnum(
                        crd.path("spec")
                                .path("versions")
                                .get(0)
                                .path("schema")
                                .path("openAPIV3Schema"))
                .forEach(value -> values.add(value.asText()));
        return values;
    }

    /**
     * Adds {@link #ADDED_FLINK_VERSIONS} to the enum of {@code spec.flinkVersion}, after checking
     * that it is the published one: a newer jar brings its own values, and this amendment must go.
     */
    static JsonNode withFlinkVersionsUpTo22(JsonNode openApiV3Schema) {
        ArrayNode values = flinkVersionEnum(openApiV3Schema);
        List<String> published = new ArrayList<>();
        values.forEach(value -> published.add(value.asText()));
        if (!published.equals(PUBLISHED_FLINK_VERSIONS)) {
            throw new IllegalStateException(
                    "spec.flinkVersion of the operator's CRD is "
                            + published
                            + ", not the "
                            + PUBLISHED_FLINK_VERSIONS
                            + " this amendment was written for");
        }
        ADDED_FLINK_VERSIONS.forEach(values::add);
        return openApiV3Schema;
    }

    private static ArrayNode flinkVersionEnum(JsonNode openApiV3Schema) {
        JsonNode flinkVersion =
                openApiV3Schema
                        .path("properties")
                        .path("spec")
                        .path("properties")
                        .path("flinkVersion");
        if (!(flinkVersion.get("enum") instanceof ArrayNode values)) {
            throw new IllegalStateException("the operator's CRD has no enum at spec.flinkVersion");
        }
        return values;
    }

    private static InputStream resource(String name) {
        InputStream in = FlinkOperatorCrds.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException(
                    name + " is not on the class path (flink-kubernetes-operator-api)");
        }
        return in;
    }
}
