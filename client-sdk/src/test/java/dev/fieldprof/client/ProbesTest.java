package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.client.transport.ReportTransport;
import dev.fieldprof.ldp.SeededRandomSource;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbesTest {
    @TempDir Path dir;
    private final ReportTransport transport = new CallbackReportTransport(r -> {}, 16);
    private final List<DeviceRuntime> runtimes = new ArrayList<>();

    @AfterEach
    void tearDown() {
        Probes.install(null);
        Probes.unbindCurrentThread();
        runtimes.forEach(DeviceRuntime::close);
        transport.close();
    }

    private DeviceRuntime runtime(String name, int methods) throws Exception {
        ClientConfig config =
                ClientConfig.builder()
                        .appVersion("probes:1")
                        .deviceId(name)
                        .methodCount(methods)
                        .privacy("default", 1.0, 1, 1_000_000)
                        .checkpointInterval(null)
                        .stateDir(dir.resolve(name))
                        .build();
        DeviceRuntime runtime =
                DeviceRuntime.start(
                        config, transport, new SeededRandomSource(1), Clock.systemUTC());
        runtimes.add(runtime);
        return runtime;
    }

    @Test
    void countsEveryEventExactlyOnceAcrossThreads() throws Exception {
        DeviceRuntime runtime = runtime("threads", 100);
        Probes.install(runtime);
        int threads = 4;
        int perThread = 250_000;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker =
                    new Thread(
                            () -> {
                                try {
                                    start.await();
                                } catch (Exception e) {
                                    throw new IllegalStateException(e);
                                }
                                for (int i = 0; i < perThread; i++) {
                                    Probes.enter(i % 100);
                                }
                            });
            workers.add(worker);
            worker.start();
        }
        // Drain concurrently while the workers count: no event may be lost or doubled.
        long seen = 0;
        while (workers.stream().anyMatch(Thread::isAlive)) {
            seen += runtime.counters().drain().total();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        EventCounters.Delta last = runtime.counters().drain();
        assertThat(seen + last.total()).isEqualTo((long) threads * perThread);
        assertThat(runtime.counters().liveStripes()).isZero(); // finished threads were folded
    }

    @Test
    void countsOutOfRangeIdsAsDroppedWithoutThrowing() throws Exception {
        DeviceRuntime runtime = runtime("drops", 10);
        Probes.install(runtime);
        assertThatCode(
                        () -> {
                            Probes.enter(-1);
                            Probes.enter(10);
                            Probes.enter(Integer.MAX_VALUE);
                            Probes.enter(Integer.MIN_VALUE);
                            Probes.enter(3);
                        })
                .doesNotThrowAnyException();
        EventCounters.Delta delta = runtime.counters().drain();
        assertThat(delta.dropped()).isEqualTo(4);
        assertThat(delta.total()).isEqualTo(1);
        assertThat(delta.counts()[3]).isEqualTo(1);
    }

    @Test
    void boundThreadsCountIntoTheirOwnRuntime() throws Exception {
        DeviceRuntime global = runtime("global", 5);
        DeviceRuntime deviceA = runtime("a", 5);
        DeviceRuntime deviceB = runtime("b", 5);
        Probes.install(global);
        Thread a =
                new Thread(
                        () -> {
                            Probes.bindCurrentThread(deviceA);
                            for (int i = 0; i < 7; i++) {
                                Probes.enter(1);
                            }
                        });
        Thread b =
                new Thread(
                        () -> {
                            Probes.bindCurrentThread(deviceB);
                            Probes.enter(2);
                            Probes.unbindCurrentThread();
                            Probes.enter(4); // back to the process-wide runtime
                        });
        a.start();
        b.start();
        a.join();
        b.join();
        assertThat(deviceA.counters().drain().counts()).containsExactly(0, 7, 0, 0, 0);
        assertThat(deviceB.counters().drain().counts()).containsExactly(0, 0, 1, 0, 0);
        assertThat(global.counters().drain().counts()).containsExactly(0, 0, 0, 0, 1);
    }

    @Test
    void countsAcrossCounterPagesAndAtTheirEdges() throws Exception {
        DeviceRuntime runtime = runtime("pages", 1024);
        DeviceRuntime wide = runtime("wide", 2053);
        for (int id : new int[] {0, 1023, 1024, 1023}) {
            runtime.record(id);
        }
        for (int id : new int[] {0, 1023, 1024, 2047, 2048, 2052, 2053, -7}) {
            wide.record(id);
        }
        EventCounters.Delta delta = runtime.counters().drain();
        assertThat(delta.total()).isEqualTo(3);
        assertThat(delta.dropped()).isEqualTo(1);
        assertThat(delta.counts()[1023]).isEqualTo(2);
        EventCounters.Delta wideDelta = wide.counters().drain();
        assertThat(wideDelta.total()).isEqualTo(6);
        assertThat(wideDelta.dropped()).isEqualTo(2);
        assertThat(wideDelta.counts()[2052]).isEqualTo(1);
        assertThat(wideDelta.counts()[1024]).isEqualTo(1);
    }

    @Test
    void ignoresEventsWithoutAnyRuntime() {
        Probes.install(null);
        assertThatCode(() -> Probes.enter(1)).doesNotThrowAnyException();
    }
}
