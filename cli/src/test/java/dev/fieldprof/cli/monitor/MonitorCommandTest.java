package dev.fieldprof.cli.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import org.junit.jupiter.api.Test;

class MonitorCommandTest {

    private final CliCapture cli = new CliCapture();

    @Test
    void refusesAFlinkRestAddressWithoutAPortBeforeListening() throws Exception {
        int exit =
                cli.run(
                        "monitor",
                        "--bootstrap",
                        "127.0.0.1:1",
                        "--port",
                        "0",
                        "--flink-rest",
                        "localhost");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err())
                .startsWith("--flink-rest: not HOST:PORT or a URL with a port: localhost");
        assertThat(cli.out()).doesNotContain("open http");
    }
}
