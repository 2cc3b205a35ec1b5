package dev.fieldprof.deploy.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates the CEL rules of a CRD schema ({@code x-kubernetes-validations}) on a manifest, as the
 * API server does after the schema check: each rule sees the value at its node as {@code self}; a
 * rule that is false, or that fails to evaluate, rejects the resource with the rule's message.
 * Transition rules (those reading {@code oldSelf}) apply only to updates and are skipped.
 */
final class CelRules {
    private static final Cel CEL =
            CelFactory.standardCelBuilder()
                    .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                    .addVar("self", SimpleType.DYN)
                    .build();

    private CelRules() {}

    /**
     * Every broken rule of {@code openApiV3Schema} on {@code manifest}, as {@code /path: message}.
     */
    static List<String> check(JsonNode openApiV3Schema, JsonNode manifest) {
        List<String> problems = new ArrayList<>();
        walk(openApiV3Schema, manifest, "", problems);
        return problems;
    }

    private static void walk(JsonNode schema, JsonNode value, String path, List<String> problems) {
        if (value == null || value.isMissingNode() || value.isNull()) {
            return;
        }
        for (JsonNode rule : schema.path("x-kubernetes-validations")) {
            String expression = rule.path("rule").asText();
            if (!expression.contains("oldSelf")) {
                evaluate(expression, rule.path("message").asText(""), value, path, problems);
            }
        }
        JsonNode properties = schema.path("properties");
        if (value.isObject()) {
            value.properties()
                    .forEach(
                            field -> {
                                JsonNode child = properties.get(field.getKey());
                                if (child == null
                                        && schema.get("additionalProperties") != null
                                        && schema.get("additionalProperties").isObject()) {
                                    child = schema.get("additionalProperties");
                                }
                                if (child != null) {
                                    walk(
                                            child,
                                            field.getValue(),
                                            path + "/" + field.getKey(),
                                            problems);
                                }
                            });
        } else if (value.isArray() && schema.path("items").isObject()) {
            for (int i = 0; i < value.size(); i++) {
                walk(schema.get("items"), value.get(i), path + "/" + i, problems);
            }
        }
    }

    private static void evaluate(
            String expression, String message, JsonNode value, String path, List<String> problems) {
        String at = path.isEmpty() ? "/" : path;
        try {
            Object result =
                    CEL.createProgram(CEL.compile(expression).getAst())
                            .eval(Map.of("self", toCel(value)));
            if (!Boolean.TRUE.equals(result)) {
                problems.add(
                        at + ": " + (message.isEmpty() ? "failed rule: " + expression : message));
            }
        } catch (CelValidationException | CelEvaluationException e) {
            problems.add(
                    at + ": rule " + expression + " could not be evaluated: " + e.getMessage());
        }
    }

    /** A JSON value as CEL's Java values: maps, lists, Long, Double, String, Boolean. */
    private static Object toCel(JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            node.properties()
                    .forEach(
                            field -> {
                                if (!field.getValue().isNull()) {
                                    map.put(field.getKey(), toCel(field.getValue()));
                                }
                            });
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>();
            node.forEach(item -> list.add(toCel(item)));
            return list;
        }
        if (node.isIntegralNumber()) {
            return node.asLong();
        }
        if (node.isNumber()) {
            return node.asDouble();
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        return node.asText();
    }
}
