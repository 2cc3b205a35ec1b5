package dev.fieldprof.client.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.paths.ArrayBranchTable;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The edge model feed's thread, under the device agent and in the embedded SDK alike, outlives a
 * broker that does not answer: it counts the failure, backs off, tries again, and prints nothing.
 */
class KafkaEdgeModelFeedTest {

    /** A local port nothing listens on: connections to it are refused. */
    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void aBrokerThatDoesNotAnswerIsCountedAndTheThreadLivesOnSilently() throws Exception {
        // SLF4J says once per JVM, on stderr, that the host has no logging backend: that is the
        // host's logging set-up, not the feed; let it say so before stderr is watched.
        org.slf4j.LoggerFactory.getLogger(KafkaEdgeModelFeedTest.class);
        PrintStream hostErr = System.err;
        PrintStream hostOut = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream watching = new PrintStream(printed, true, StandardCharsets.UTF_8);
        System.setErr(watching);
        System.setOut(watching);
        KafkaEdgeModelFeed feed = null;
        try {
            feed =
                    new KafkaEdgeModelFeed(
                            "127.0.0.1:" + closedPort(),
                            "fieldprof.models.edges",
                            new EdgeModelStore(
                                    "app:1", ArrayBranchTable.builder(2).branch(0, 0, 2).build()));
            // The first metadata request times out after 5 s; the deadline is generous.
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (feed.failures() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            // One failure at least; how many more by now depends on the machine's speed.
            assertThat(feed.failures()).isPositive();
            assertThat(feed.alive()).isTrue();
            assertThat(
                            Thread.getAllStackTraces().keySet().stream()
                                    .filter(t -> t.getName().equals("fieldprof-edge-models"))
                                    .filter(Thread::isAlive))
                    .hasSize(1);
        } finally {
            if (feed != null) {
                feed.close();
            }
            System.setErr(hostErr);
            System.setOut(hostOut);
        }
        long ended = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (feed.alive() && System.nanoTime() < ended) {
            Thread.sleep(50);
        }
        assertThat(feed.alive()).as("ended by close").isFalse();
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
