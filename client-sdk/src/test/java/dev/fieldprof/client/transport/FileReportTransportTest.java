package dev.fieldprof.client.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.schemas.FrequencyReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileReportTransportTest {
    @TempDir Path dir;

    @Test
    void appendsReportsThatReadBackInOrderAcrossReopens() throws Exception {
        Path file = dir.resolve("out/reports.fpr");
        List<FrequencyReport> expected = new ArrayList<>();
        try (FileReportTransport transport = new FileReportTransport(file, 100)) {
            for (int i = 0; i < 5; i++) {
                expected.add(Reports.report(i, 20));
                transport.submit(expected.get(i));
            }
            assertThat(transport.flush(Duration.ofSeconds(10))).isTrue();
        }
        try (FileReportTransport transport = new FileReportTransport(file, 100)) {
            expected.add(Reports.report(5, 20));
            transport.submit(expected.get(5));
            assertThat(transport.flush(Duration.ofSeconds(10))).isTrue();
            assertThat(transport.counters().sent()).isEqualTo(1);
        }
        assertThat(ReportFile.readAll(file)).isEqualTo(expected);
    }

    @Test
    void ignoresATornLastFrame() throws Exception {
        Path file = dir.resolve("reports.fpr");
        try (FileReportTransport transport = new FileReportTransport(file, 10)) {
            transport.submit(Reports.report(1, 4));
            transport.submit(Reports.report(2, 4));
            assertThat(transport.flush(Duration.ofSeconds(10))).isTrue();
        }
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 3));
        assertThat(ReportFile.readAll(file)).containsExactly(Reports.report(1, 4));
    }

    @Test
    void countsWriteFailuresWithoutThrowing() throws Exception {
        Path blocker = dir.resolve("not-a-dir");
        Files.writeString(blocker, "x");
        try (FileReportTransport transport =
                new FileReportTransport(blocker.resolve("reports.fpr"), 10)) {
            transport.submit(Reports.report(1, 4));
            assertThat(transport.flush(Duration.ofSeconds(10))).isTrue();
            assertThat(transport.counters().dropped(DropReason.WRITE_FAILED)).isEqualTo(1);
        }
    }

    @Test
    void countsQueueOverflowAndSubmissionsAfterClose() {
        CallbackReportTransport slow;
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        slow =
                new CallbackReportTransport(
                        r -> {
                            try {
                                release.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        2);
        for (int i = 0; i < 10; i++) {
            slow.submit(Reports.report(i, 2)); // never blocks although the consumer is stuck
        }
        assertThat(slow.counters().dropped(DropReason.QUEUE_FULL)).isBetween(7L, 8L);
        release.countDown();
        slow.close();
        slow.submit(Reports.report(99, 2));
        assertThat(slow.counters().dropped(DropReason.CLOSED)).isEqualTo(1);
    }
}
