package dev.fieldprof.cli.load;

import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.transport.ReportTransport;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.client.transport.kafka.KafkaReportTransport;
import dev.fieldprof.client.transport.kafka.KafkaTransportSettings;
import dev.fieldprof.ldp.ChaCha20RandomSource;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.ProgramModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * Simulated devices paced to an aggregate report rate. Each device is a real {@link DeviceRuntime}
 * with its own device id, state directory (epoch counts, privacy ledger, report numbers) and exact
 * ε-t randomizer; it counts k method entries drawn from a Zipf distribution over the model's
 * methods, then ends its epoch, which samples, randomizes, numbers and hands one report to the
 * transport. The devices are split over a few worker threads, each with its own Kafka transport
 * (the SDK's, with its on-disk spool), as the demo's devices share one: a producer per device would
 * measure a thousand producers on this machine, not the pipeline.
 */
final class LoadFleet implements AutoCloseable {
    // A load run compresses days of use into minutes: the SDK's default cap (24 reports a day)
    // would silence every device at once.
    private static final int REPORTS_PER_DAY = 1_000_000;

    private final List<DeviceRuntime> devices = new ArrayList<>();
    private final List<KafkaReportTransport> transports = new ArrayList<>();
    private final List<Thread> workers = new ArrayList<>();
    private final double[] cumulativeShares;
    private final int eventsPerReport;
    private final AtomicLong made = new AtomicLong();
    private final Map<DeviceRuntime.Outcome, AtomicLong> notReported =
            new EnumMap<>(DeviceRuntime.Outcome.class);
    private volatile boolean stopping;

    /**
     * @param workerCount threads (and transports), at least 1, at most {@code deviceCount}
     * @param deviceIdPrefix devices are named prefix + zero-padded index
     */
    LoadFleet(
            ProgramModel model,
            Properties client,
            String reportsTopic,
            int deviceCount,
            int workerCount,
            String deviceIdPrefix,
            Path stateRoot) {
        PrivacyConfig privacy = model.getPrivacyConfigs().get(0);
        int methods = model.getMethods().size();
        this.eventsPerReport = privacy.getMode() == PrivacyMode.USER_LEVEL ? 1 : privacy.getK();
        this.cumulativeShares = zipf(methods);
        for (DeviceRuntime.Outcome outcome : DeviceRuntime.Outcome.values()) {
            notReported.put(outcome, new AtomicLong());
        }
        try {
            for (int w = 0; w < workerCount; w++) {
                transports.add(
                        new KafkaReportTransport(
                                KafkaTransportSettings.builder(
                                                client.getProperty(
                                                        CommonClientConfigs
                                                                .BOOTSTRAP_SERVERS_CONFIG),
                                                stateRoot.resolve("spool-" + w))
                                        .topic(reportsTopic)
                                        .timeout(Duration.ofSeconds(30))
                                        .spoolMaxBytes(256L << 20)
                                        .queueCapacity(1_000_000)
                                        .clientProperties(asMap(client))
                                        .build()));
            }
            for (int i = 0; i < deviceCount; i++) {
                String deviceId = String.format("%s%06d", deviceIdPrefix, i);
                ClientConfig.Builder config =
                        ClientConfig.builder()
                                .appVersion(model.getAppVersion())
                                .deviceId(deviceId)
                                .methodCount(methods)
                                .stateDir(stateRoot.resolve(deviceId))
                                .reportsPerDayCap(REPORTS_PER_DAY)
                                .privacy(privacy)
                                // Simulated devices report many times a day to load the jobs:
                                // no budget, by name.
                                .noBudget();
                devices.add(
                        DeviceRuntime.start(
                                config.build(),
                                transports.get(i % workerCount),
                                new ChaCha20RandomSource(),
                                Clock.systemUTC()));
            }
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot create device state in " + stateRoot, e);
        }
    }

    /** Starts the workers: together they end {@code rate} device epochs a second until stopped. */
    void start(double rate, long seed) {
        int workerCount = transports.size();
        for (int w = 0; w < workerCount; w++) {
            List<DeviceRuntime> own = new ArrayList<>();
            for (int i = w; i < devices.size(); i += workerCount) {
                own.add(devices.get(i));
            }
            long periodNanos = Math.round(1e9 * workerCount / rate);
            SplittableRandom random = new SplittableRandom(seed + w);
            Thread thread = new Thread(() -> run(own, periodNanos, random), "load-worker-" + w);
            thread.setDaemon(true);
            workers.add(thread);
        }
        workers.forEach(Thread::start);
    }

    private void run(List<DeviceRuntime> own, long periodNanos, SplittableRandom random) {
        long next = System.nanoTime();
        for (int turn = 0; !stopping; turn++) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
                continue;
            }
            // Behind schedule the worker sends back to back, never more than the schedule asks.
            next += periodNanos;
            DeviceRuntime device = own.get(turn % own.size());
            for (int e = 0; e < eventsPerReport; e++) {
                device.record(draw(random));
            }
            DeviceRuntime.Outcome outcome = device.endEpoch().outcome();
            if (outcome == DeviceRuntime.Outcome.REPORTED) {
                made.incrementAndGet();
            } else {
                notReported.get(outcome).incrementAndGet();
            }
        }
    }

    private int draw(SplittableRandom random) {
        double u = random.nextDouble();
        int low = 0;
        int high = cumulativeShares.length - 1;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (cumulativeShares[mid] < u) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    private static double[] zipf(int methods) {
        double[] cumulative = new double[methods];
        double total = 0;
        for (int v = 0; v < methods; v++) {
            total += 1.0 / (v + 1);
            cumulative[v] = total;
        }
        for (int v = 0; v < methods; v++) {
            cumulative[v] /= total;
        }
        cumulative[methods - 1] = 1.0;
        return cumulative;
    }

    /** Stops the workers after the epoch each is ending. */
    void stop() throws InterruptedException {
        stopping = true;
        for (Thread worker : workers) {
            worker.join();
        }
    }

    /** Reports the devices made (numbered by their ledgers and handed to a transport). */
    long made() {
        return made.get();
    }

    /** Epochs that ended without a report, by outcome (none in a healthy run). */
    long notReported() {
        return notReported.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /** The transports' counters summed. */
    TransportCounters counters() {
        return TransportCounters.sum(
                transports.stream().map(KafkaReportTransport::counters).toList());
    }

    /**
     * Waits until every transport has delivered what it holds, its spool included, or the deadline
     * passes; returns whether everything was delivered.
     */
    boolean drain(long deadlineNanos) throws InterruptedException {
        while (true) {
            boolean settled = true;
            for (ReportTransport transport : transports) {
                long left = Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000);
                settled &= transport.flush(Duration.ofMillis(Math.min(left, 1_000)));
            }
            if (settled && counters().spooledNow() == 0) {
                return true;
            }
            if (System.nanoTime() - deadlineNanos >= 0) {
                return false;
            }
            Thread.sleep(200); // a spool retries with backoff: look again shortly
        }
    }

    @Override
    public void close() {
        stopping = true;
        for (DeviceRuntime device : devices) {
            device.close();
        }
        for (ReportTransport transport : transports) {
            transport.close();
        }
    }

    /** The user's client properties as the transport takes them (all but the bootstrap). */
    private static Map<String, String> asMap(Properties client) {
        Map<String, String> map = new java.util.TreeMap<>();
        for (String name : client.stringPropertyNames()) {
            if (!name.equals(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)) {
                map.put(name, client.getProperty(name));
            }
        }
        return map;
    }
}
