package dev.fieldprof.deploy.k8s;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Checks the core Kubernetes resources of deploy/k8s, which have no CRD, against fabric8's model of
 * the Kubernetes API (generated from Kubernetes' own OpenAPI): a field the model does not know is
 * an error. fabric8 keeps unknown fields in an "additional properties" map; with that any-setter
 * switched off, Jackson names the first unknown field instead.
 */
final class CoreResources {
    /** The core kinds deploy/k8s may hold, by {@code apiVersion kind}. */
    private static final Map<String, Class<?>> MODELS =
            Map.of(
                    "v1 PersistentVolumeClaim",
                    PersistentVolumeClaim.class,
                    "v1 ConfigMap",
                    io.fabric8.kubernetes.api.model.ConfigMap.class);

    private static final ObjectMapper STRICT =
            new ObjectMapper()
                    .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .setAnnotationIntrospector(
                            new JacksonAnnotationIntrospector() {
                                private static final long serialVersionUID = 1L;

                                @Override
                                public Boolean hasAnySetter(Annotated annotated) {
                                    return Boolean.FALSE;
                                }
                            });

    private CoreResources() {}

    static boolean isCore(JsonNode manifest) {
        return !manifest.path("apiVersion").asText().contains("/");
    }

    /** What is wrong with a core resource, one line per problem: empty when it is valid. */
    static List<String> validate(JsonNode manifest) {
        String key = manifest.path("apiVersion").asText() + " " + manifest.path("kind").asText();
        String resource =
                manifest.path("kind").asText()
                        + " "
                        + manifest.path("metadata").path("name").asText("(unnamed)");
        Class<?> model = MODELS.get(key);
        if (model == null) {
            return List.of(resource + ": not a core kind deploy/k8s checks: " + key);
        }
        try {
            STRICT.treeToValue(manifest, model);
            return List.of();
        } catch (UnrecognizedPropertyException e) {
            return List.of(resource + ": unknown field " + path(e));
        } catch (JsonMappingException e) {
            return List.of(resource + ": " + path(e) + ": " + e.getOriginalMessage());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return List.of(resource + ": " + e.getOriginalMessage());
        }
    }

    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(
                        ref ->
                                ref.getFieldName() != null
                                        ? ref.getFieldName()
                                        : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining("."))
                .replace(".[", "[");
    }
}
