package dev.fieldprof.client.transport.kafka;

import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.SaslConfigs;

/**
 * Kafka client properties that name Kafka's own classes ({@code sasl.jaas.config}'s login module,
 * {@code *.class} and {@code *.classes} settings), rewritten to the package this SDK's Kafka client
 * really lives in. The device agent relocates kafka-clients (so that a program keeps its own Kafka
 * client), and a login module named {@code org.apache.kafka...} would then not be found: the device
 * could never authenticate. Users write the names Kafka documents, and this maps them; where Kafka
 * is not relocated (the SDK on a class path) nothing changes.
 */
public final class KafkaClassNames {
    // Built at run time: the shade plugin rewrites string constants that name a relocated
    // package, and the constant "org.apache.kafka" would become the relocated name itself.
    private static final String DOCUMENTED = String.join(".", "org", "apache", "kafka");
    private static final String LOADED = loadedRoot(SaslConfigs.class.getPackageName());

    private KafkaClassNames() {}

    /** The device's properties with Kafka's documented class names mapped to the loaded ones. */
    public static Map<String, String> forLoadedClient(Map<String, String> properties) {
        return relocate(properties, DOCUMENTED, LOADED);
    }

    /**
     * {@code properties} with {@code documented + "."} replaced by {@code loaded + "."} in the
     * values of the settings that name classes; names already relocated stay as they are.
     */
    static Map<String, String> relocate(
            Map<String, String> properties, String documented, String loaded) {
        if (documented.equals(loaded)) {
            return properties;
        }
        Map<String, String> out = new TreeMap<>(properties);
        out.replaceAll(
                (key, value) ->
                        namesClasses(key) ? relocateValue(value, documented, loaded) : value);
        return out;
    }

    private static boolean namesClasses(String key) {
        return key.equals(SaslConfigs.SASL_JAAS_CONFIG)
                || key.endsWith(".class")
                || key.endsWith(".classes")
                || key.equals("metric.reporters");
    }

    private static String relocateValue(String value, String documented, String loaded) {
        StringBuilder out = new StringBuilder(value.length() + 32);
        String prefix = documented + ".";
        int from = 0;
        for (int at = value.indexOf(prefix); at >= 0; at = value.indexOf(prefix, from)) {
            boolean partOfLongerName =
                    at > 0
                            && (Character.isJavaIdentifierPart(value.charAt(at - 1))
                                    || value.charAt(at - 1) == '.');
            out.append(value, from, at).append(partOfLongerName ? documented : loaded);
            from = at + documented.length();
        }
        return out.append(value, from, value.length()).toString();
    }

    /** "x.y.org.apache.kafka" from "x.y.org.apache.kafka.common.config". */
    private static String loadedRoot(String configPackage) {
        String suffix = ".common.config";
        return configPackage.endsWith(suffix)
                ? configPackage.substring(0, configPackage.length() - suffix.length())
                : DOCUMENTED;
    }
}
