package dev.fieldprof.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Starting and closing the embedded runtime leaves nothing behind: no directory, no listener. */
class EmbeddedRuntimeLifecycleITCase {

    @Test
    void closeStopsBothRuntimesFreesTheirPortsAndDeletesTheBrokerDirectory() throws Exception {
        EmbeddedRuntime runtime =
                EmbeddedRuntime.builder().partitions(2).taskSlots(1).build().start();
        Path directory = runtime.kafka().directory();
        String[] bootstrap = runtime.bootstrapServers().split(":");
        int brokerPort = Integer.parseInt(bootstrap[1]);
        URI rest = runtime.flink().restAddress();
        assertThat(Files.isDirectory(directory)).isTrue();
        assertThat(accepts(bootstrap[0], brokerPort)).isTrue();
        assertThat(accepts(rest.getHost(), rest.getPort())).isTrue();
        assertThat(runtime.kafka().admin().listTopics().names().get())
                .containsAll(EmbeddedRuntime.TOPICS);

        runtime.close();
        runtime.close(); // idempotent

        assertThat(Files.exists(directory)).isFalse();
        assertThat(accepts(bootstrap[0], brokerPort)).isFalse();
        assertThat(accepts(rest.getHost(), rest.getPort())).isFalse();
    }

    @Test
    void refusesAccessBeforeStart() {
        EmbeddedRuntime runtime = EmbeddedRuntime.builder().build();

        assertThatThrownBy(runtime::bootstrapServers)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the embedded runtime is not started");
    }

    private static boolean accepts(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
