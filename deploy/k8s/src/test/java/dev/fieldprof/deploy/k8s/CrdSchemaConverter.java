package dev.fieldprof.deploy.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a CRD version's {@code openAPIV3Schema} into a draft-4 JSON Schema that rejects what an API
 * server with strict field validation ({@code kubectl apply --validate=strict}, the default since
 * Kubernetes 1.27) rejects. Kubernetes prunes or refuses every field a structural schema does not
 * declare, unless the node says {@code x-kubernetes-preserve-unknown-fields: true}; JSON Schema
 * allows undeclared fields unless told otherwise. So every object node of the schema's tree gets
 * {@code additionalProperties: false} unless it preserves unknown fields or already says what its
 * additional properties are, {@code nullable} becomes a {@code null} type, {@code
 * x-kubernetes-int-or-string} an integer-or-string type, and the root gets the {@code apiVersion},
 * {@code kind} and {@code metadata} that the API server checks itself. CEL rules ({@code
 * x-kubernetes-validations}) are left out here; {@link CelRules} evaluates them.
 */
final class CrdSchemaConverter {
    private static final String PRESERVE_UNKNOWN = "x-kubernetes-preserve-unknown-fields";
    private static final String INT_OR_STRING = "x-kubernetes-int-or-string";
    private static final String EMBEDDED_RESOURCE = "x-kubernetes-embedded-resource";

    /** RFC 1123 subdomain: the names of most Kubernetes objects. */
    static final String DNS_SUBDOMAIN =
            "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";

    private CrdSchemaConverter() {}

    /** The strict JSON Schema of resources of {@code apiVersion} and {@code kind}. */
    static ObjectNode convert(JsonNode openApiV3Schema, String apiVersion, String kind) {
        ObjectNode schema = openApiV3Schema.deepCopy();
        strict(schema, true);
        ObjectNode properties = schema.withObjectProperty("properties");
        properties.set("apiVersion", constant(apiVersion));
        properties.set("kind", constant(kind));
        properties.set("metadata", objectMeta(true));
        schema.put("type", "object");
        schema.put("additionalProperties", false);
        ArrayNode required = schema.withArrayProperty("required");
        for (String field : List.of("apiVersion", "kind", "metadata")) {
            if (!required.toString().contains("\"" + field + "\"")) {
                required.add(field);
            }
        }
        return schema;
    }

    /**
     * Rewrites {@code node} in place. {@code structural}: the node describes a value's shape (a
     * property, item or map value), not a branch of allOf/anyOf/oneOf/not, whose object nodes only
     * add constraints to the shape their parent declares and must not close it.
     */
    private static void strict(ObjectNode node, boolean structural) {
        boolean preserveUnknown = node.path(PRESERVE_UNKNOWN).asBoolean(false);
        if (node.path(INT_OR_STRING).asBoolean(false) && !node.has("type")) {
            node.set("type", types("integer", "string"));
        }
        if (node.path("nullable").asBoolean(false) && node.has("type")) {
            node.set("type", types(node.get("type").asText(), "null"));
        }
        node.remove("nullable");
        if (node.path(EMBEDDED_RESOURCE).asBoolean(false)) {
            ObjectNode properties = node.withObjectProperty("properties");
            if (!properties.path("metadata").has("properties")) {
                properties.set("metadata", objectMeta(false));
            }
        }
        List<String> extensions = new ArrayList<>();
        node.fieldNames()
                .forEachRemaining(
                        name -> {
                            if (name.startsWith("x-kubernetes-")) {
                                extensions.add(name);
                            }
                        });
        node.remove(extensions);

        boolean isObject = "object".equals(node.path("type").asText()) || node.has("properties");
        if (structural && isObject && !preserveUnknown && !node.has("additionalProperties")) {
            node.put("additionalProperties", false);
        }
        if (node.get("properties") instanceof ObjectNode properties) {
            for (Map.Entry<String, JsonNode> property : properties.properties()) {
                if (property.getValue() instanceof ObjectNode child) {
                    strict(child, structural);
                }
            }
        }
        if (node.get("additionalProperties") instanceof ObjectNode values) {
            strict(values, structural);
        }
        JsonNode items = node.get("items");
        if (items instanceof ObjectNode item) {
            strict(item, structural);
        } else if (items instanceof ArrayNode tuple) {
            tuple.forEach(item -> strict((ObjectNode) item, structural));
        }
        for (String junctor : List.of("allOf", "anyOf", "oneOf")) {
            if (node.get(junctor) instanceof ArrayNode branches) {
                branches.forEach(branch -> strict((ObjectNode) branch, false));
            }
        }
        if (node.get("not") instanceof ObjectNode not) {
            strict(not, false);
        }
    }

    /** What the API server accepts in a manifest's metadata (a subset of ObjectMeta). */
    private static ObjectNode objectMeta(boolean nameRequired) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode meta = json.objectNode().put("type", "object");
        ObjectNode properties = meta.putObject("properties");
        properties
                .putObject("name")
                .put("type", "string")
                .put("maxLength", 253)
                .put("pattern", DNS_SUBDOMAIN);
        properties
                .putObject("namespace")
                .put("type", "string")
                .put("maxLength", 63)
                .put("pattern", DNS_SUBDOMAIN);
        for (String map : List.of("labels", "annotations")) {
            properties
                    .putObject(map)
                    .put("type", "object")
                    .set("additionalProperties", json.objectNode().put("type", "string"));
        }
        meta.put("additionalProperties", false);
        if (nameRequired) {
            meta.set("required", json.arrayNode().add("name"));
        }
        return meta;
    }

    private static ObjectNode constant(String value) {
        ObjectNode node = JsonNodeFactory.instance.objectNode().put("type", "string");
        node.set("enum", JsonNodeFactory.instance.arrayNode().add(value));
        return node;
    }

    private static ArrayNode types(String... names) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (String name : names) {
            array.add(name);
        }
        return array;
    }
}
