package dev.fieldprof.deploy.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The strict schemas ({@link CrdSchemaConverter}) of every served version of a set of
 * CustomResourceDefinitions, by {@code apiVersion} and {@code kind}; validates manifests with them.
 */
final class CustomResourceSchemas {
    private final SchemaRegistry registry =
            SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4);
    private final Map<String, Schema> schemas = new LinkedHashMap<>();

    /**
     * The (amended) openAPIV3Schema of each version, whose CEL rules {@link CelRules} evaluates.
     */
    private final Map<String, JsonNode> openApiSchemas = new LinkedHashMap<>();

    /** Adds the served versions of a CustomResourceDefinition (apiextensions.k8s.io/v1). */
    void add(JsonNode crd) {
        add(crd, UnaryOperator.identity());
    }

    /**
     * Adds the served versions of {@code crd}, each version's openAPIV3Schema first passed through
     * {@code amendment}.
     */
    void add(JsonNode crd, UnaryOperator<JsonNode> amendment) {
        if (!"CustomResourceDefinition".equals(crd.path("kind").asText())) {
            throw new IllegalArgumentException(
                    "not a CustomResourceDefinition: " + crd.path("kind"));
        }
        String group = crd.path("spec").path("group").asText();
        String kind = crd.path("spec").path("names").path("kind").asText();
        for (JsonNode version : crd.path("spec").path("versions")) {
            if (!version.path("served").asBoolean(false)) {
                continue;
            }
            String apiVersion = group + "/" + version.path("name").asText();
            JsonNode openApi =
                    amendment.apply(version.path("schema").path("openAPIV3Schema").deepCopy());
            openApiSchemas.put(key(apiVersion, kind), openApi);
            schemas.put(
                    key(apiVersion, kind),
                    registry.getSchema(CrdSchemaConverter.convert(openApi, apiVersion, kind)));
        }
    }

    /** The {@code apiVersion kind} pairs known, in the order added. */
    List<String> kinds() {
        return List.copyOf(schemas.keySet());
    }

    /**
     * What is wrong with {@code manifest}, one line per problem naming the resource and the JSON
     * path: empty when it is valid.
     */
    List<String> validate(JsonNode manifest) {
        String apiVersion = manifest.path("apiVersion").asText();
        String kind = manifest.path("kind").asText();
        String resource = kind + " " + manifest.path("metadata").path("name").asText("(unnamed)");
        Schema schema = schemas.get(key(apiVersion, kind));
        if (schema == null) {
            return List.of(resource + ": no CRD for apiVersion " + apiVersion + ", kind " + kind);
        }
        List<String> problems = new ArrayList<>();
        for (Error error : schema.validate(manifest)) {
            // The validator names the document's root by an empty pointer; "/" reads better.
            String problem = error.toString();
            problems.add(resource + ": " + (problem.startsWith(": ") ? "/" + problem : problem));
        }
        if (problems.isEmpty()) {
            // CEL rules assume the declared types: run them once the schema passes, so that one
            // mistake gives one line.
            for (String problem :
                    CelRules.check(openApiSchemas.get(key(apiVersion, kind)), manifest)) {
                problems.add(resource + ": " + problem);
            }
        }
        return problems;
    }

    private static String key(String apiVersion, String kind) {
        return apiVersion + " " + kind;
    }
}
