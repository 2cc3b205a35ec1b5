package dev.fieldprof.client.transport.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaClassNamesTest {
    private static final String KAFKA = "org.apache.kafka";
    private static final String SHADED = "dev.fieldprof.device.shaded.org.apache.kafka";

    @Test
    void mapsTheLoginModuleAndClassSettingsToTheRelocatedPackage() {
        Map<String, String> in =
                Map.of(
                        "sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required"
                                + " username=\"u\" password=\"org.apache.kafka.x\";",
                        "sasl.login.callback.handler.class",
                        "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
                        "interceptor.classes",
                        "com.example.Mine,org.apache.kafka.clients.Other",
                        "security.protocol",
                        "SASL_SSL",
                        "ssl.truststore.location",
                        "/etc/org.apache.kafka.common/truststore.p12");

        Map<String, String> out = KafkaClassNames.relocate(in, KAFKA, SHADED);

        // Every documented Kafka class name in a setting that names classes is relocated (the
        // password too: it is text inside the JAAS line, and a password that looks like a Kafka
        // package is not worth parsing JAAS for); other settings are untouched.
        assertThat(out)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "sasl.jaas.config",
                                SHADED
                                        + ".common.security.scram.ScramLoginModule required"
                                        + " username=\"u\" password=\""
                                        + SHADED
                                        + ".x\";",
                                "sasl.login.callback.handler.class",
                                SHADED
                                        + ".common.security.oauthbearer"
                                        + ".OAuthBearerLoginCallbackHandler",
                                "interceptor.classes",
                                "com.example.Mine," + SHADED + ".clients.Other",
                                "security.protocol",
                                "SASL_SSL",
                                "ssl.truststore.location",
                                "/etc/org.apache.kafka.common/truststore.p12"));
    }

    @Test
    void leavesNamesThatAreAlreadyRelocatedOrPartOfAnotherPackage() {
        Map<String, String> in =
                Map.of(
                        "sasl.jaas.config",
                        SHADED + ".common.security.plain.PlainLoginModule required;",
                        "sasl.login.class",
                        "com.example.org.apache.kafka.Login");

        assertThat(KafkaClassNames.relocate(in, KAFKA, SHADED)).isEqualTo(in);
    }

    @Test
    void changesNothingWhereKafkaIsNotRelocated() {
        Map<String, String> in =
                Map.of(
                        "sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required;");

        assertThat(KafkaClassNames.relocate(in, KAFKA, KAFKA)).isSameAs(in);
        // This test runs with kafka-clients unrelocated on the class path.
        assertThat(KafkaClassNames.forLoadedClient(in)).isEqualTo(in);
    }
}
