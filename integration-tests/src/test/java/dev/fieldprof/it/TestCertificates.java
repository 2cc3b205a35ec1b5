package dev.fieldprof.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * TLS material made for one test run by the JDK's own {@code keytool}, so that no key or password
 * is checked in: a self-signed CA, the broker's PKCS12 key store with a certificate that CA signed
 * for 127.0.0.1 and localhost, a client trust store holding that CA, and a trust store holding only
 * another CA (a client that does not trust the broker). Every store shares one random password.
 *
 * @param brokerKeyStore the broker's key and certificate chain
 * @param trustStore the CA that signed the broker's certificate
 * @param otherTrustStore an unrelated CA: the broker's certificate is not trusted with it
 * @param password of every store and key
 */
record TestCertificates(
        Path brokerKeyStore, Path trustStore, Path otherTrustStore, String password) {
    private static final String VALIDITY_DAYS = "2";
    private static final String PASSWORD_VARIABLE = "FIELDPROF_TEST_STORE_PASSWORD";

    /** Generates everything in {@code dir} (about a second of keytool runs). */
    static TestCertificates generate(Path dir) {
        byte[] random = new byte[12];
        new SecureRandom().nextBytes(random);
        String password = HexFormat.of().formatHex(random);
        Path ca = dir.resolve("ca.p12");
        Path caCert = dir.resolve("ca.pem");
        Path broker = dir.resolve("broker.p12");
        Path request = dir.resolve("broker.csr");
        Path brokerCert = dir.resolve("broker.pem");
        Path trust = dir.resolve("truststore.p12");
        Path other = dir.resolve("other-ca.p12");
        Path otherCert = dir.resolve("other-ca.pem");
        Path otherTrust = dir.resolve("other-truststore.p12");
        keytool(
                password,
                "-genkeypair",
                "-keystore",
                ca,
                "-alias",
                "ca",
                "-dname",
                "CN=fieldprof test CA",
                "-ext",
                "bc:c");
        keytool(password, "-exportcert", "-keystore", ca, "-alias", "ca", "-rfc", "-file", caCert);
        keytool(
                password,
                "-genkeypair",
                "-keystore",
                broker,
                "-alias",
                "broker",
                "-dname",
                "CN=localhost");
        keytool(password, "-certreq", "-keystore", broker, "-alias", "broker", "-file", request);
        keytool(
                password,
                "-gencert",
                "-keystore",
                ca,
                "-alias",
                "ca",
                "-infile",
                request,
                "-outfile",
                brokerCert,
                "-rfc",
                "-ext",
                "SAN=ip:127.0.0.1,dns:localhost");
        keytool(
                password,
                "-importcert",
                "-noprompt",
                "-keystore",
                broker,
                "-alias",
                "ca",
                "-file",
                caCert);
        keytool(
                password,
                "-importcert",
                "-keystore",
                broker,
                "-alias",
                "broker",
                "-file",
                brokerCert);
        keytool(
                password,
                "-importcert",
                "-noprompt",
                "-keystore",
                trust,
                "-alias",
                "ca",
                "-file",
                caCert);
        keytool(
                password,
                "-genkeypair",
                "-keystore",
                other,
                "-alias",
                "other",
                "-dname",
                "CN=some other CA",
                "-ext",
                "bc:c");
        keytool(
                password,
                "-exportcert",
                "-keystore",
                other,
                "-alias",
                "other",
                "-rfc",
                "-file",
                otherCert);
        keytool(
                password,
                "-importcert",
                "-noprompt",
                "-keystore",
                otherTrust,
                "-alias",
                "other",
                "-file",
                otherCert);
        return new TestCertificates(broker, trust, otherTrust, password);
    }

    @Override
    public String toString() {
        return "TestCertificates(" + brokerKeyStore.getParent() + ")";
    }

    /** Runs the JDK's keytool with PKCS12 stores, RSA keys and the shared password. */
    private static void keytool(String password, Object... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        for (Object arg : args) {
            command.add(arg.toString());
        }
        // The password goes through the environment, never onto a command line others can list.
        command.addAll(List.of("-storetype", "PKCS12", "-storepass:env", PASSWORD_VARIABLE));
        if (List.of(args).contains("-genkeypair")) {
            command.addAll(
                    List.of("-keyalg", "RSA", "-keysize", "2048", "-validity", VALIDITY_DAYS));
            command.addAll(List.of("-keypass:env", PASSWORD_VARIABLE));
        } else if (List.of(args).contains("-gencert")) {
            command.addAll(List.of("-validity", VALIDITY_DAYS));
        }
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().put(PASSWORD_VARIABLE, password);
            Process process = builder.start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(
                        "keytool "
                                + args[0]
                                + " failed: "
                                + new String(output, StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run keytool", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running keytool", e);
        }
    }
}
