import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.ldp.ChaCha20RandomSource;
import dev.fieldprof.client.transport.kafka.KafkaReportTransport;
import dev.fieldprof.client.transport.kafka.KafkaTransportSettings;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * One device of deploy/test-faults.sh, one program run per JVM, compiled once against the CLI's
 * classpath:
 *
 * <pre>
 * java -cp TOOLS:cli/target/fieldprof-cli.jar OfflineDevice publish BOOTSTRAP APP:VERSION
 * java -cp TOOLS:cli/target/fieldprof-cli.jar OfflineDevice run STATE_DIR BOOTSTRAP APP:VERSION HOURS_AGO [WAIT_SECONDS]
 * </pre>
 *
 * {@code publish} publishes a program model of five methods (ε = 4, t = 1, k = 20). {@code run} is
 * one run of a program on the device: the SDK's DeviceRuntime with its state (ledger, report
 * numbers) and its Kafka transport's on-disk spool in STATE_DIR, the device's clock set HOURS_AGO
 * hours back (a run earlier in the simulated day), 40 method entries, the epoch ended at exit as a
 * program run ends it, then the SDK's exit path: at most WAIT_SECONDS (default 2) for the broker to
 * take what the transport holds, and what it did not take is written to the spool for the next
 * run. The run meant to reach the broker is given a generous wait, so that on a busy machine its
 * outcome does not depend on how fast the producer connects; the wait ends as soon as all is sent. With an
 * unreachable BOOTSTRAP the report waits in the spool; the next run that reaches the broker sends
 * the spool first. Prints the run's outcome, the device's reports so far and the spool's size.
 */
public final class OfflineDevice {
    private static final String CONFIG = "offline-test";
    private static final double EPSILON = 4.0;
    private static final int K = 20;
    private static final int METHODS = 5;

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("publish")) {
            publish(args[1], args[2]);
        } else if ((args.length == 5 || args.length == 6) && args[0].equals("run")) {
            Duration wait = Duration.ofSeconds(args.length == 6 ? Long.parseLong(args[5]) : 2);
            System.exit(run(Path.of(args[1]), args[2], args[3], Long.parseLong(args[4]), wait));
        } else {
            System.err.println("usage: publish BOOTSTRAP APP:VERSION | run STATE_DIR BOOTSTRAP APP:VERSION HOURS_AGO [WAIT_SECONDS]");
            System.exit(2);
        }
    }

    private static void publish(String bootstrap, String app) throws Exception {
        List<MethodInfo> methods = new ArrayList<>();
        for (int id = 0; id < METHODS; id++) {
            methods.add(MethodInfo.newBuilder().setId(id).setSignature("offline.Main.m" + id + "()V").build());
        }
        ProgramModel model = ProgramModel.newBuilder()
                .setAppVersion(app)
                .setCreatedAtMillis(Instant.now())
                .setMethods(methods)
                .setPairs(List.of())
                .setPrivacyConfigs(List.of(PrivacyConfig.newBuilder()
                        .setConfigId(CONFIG).setEpsilon(EPSILON).setT(1).setK(K).build()))
                .setAnalysisStats(Map.of())
                .build();
        Properties properties = new Properties();
        properties.put("bootstrap.servers", bootstrap);
        properties.put("acks", "all");
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(properties, new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(Topics.PROGRAMS, app,
                    RecordCodec.of(ProgramModel.class).encode(model))).get();
        }
    }

    private static int run(Path state, String bootstrap, String app, long hoursAgo, Duration wait)
            throws Exception {
        Clock clock = Clock.offset(Clock.systemUTC(), Duration.ofHours(-hoursAgo));
        ClientConfig config = ClientConfig.builder()
                .appVersion(app)
                .deviceId("offline-device")
                .methodCount(METHODS)
                .privacy(CONFIG, EPSILON, 1, K)
                // Five epsilon-t reports of user-level eps 80 in one simulated day: no budget,
                // by name (the default, ln 9 a day, would refuse every one of them).
                .noBudget()
                .stateDir(state)
                .build();
        // The transport's own bound on a Kafka wait (metadata, delivery): an unreachable broker
        // costs the run at most this before the report goes to the spool.
        Duration kafkaWait = wait.compareTo(Duration.ofSeconds(2)) > 0 ? wait : Duration.ofSeconds(1);
        KafkaReportTransport transport = new KafkaReportTransport(
                KafkaTransportSettings.builder(bootstrap, state.resolve("spool"))
                        .topic(Topics.FREQUENCY_REPORTS)
                        .timeout(kafkaWait)
                        .spoolMaxBytes(1 << 20)
                        .queueCapacity(64)
                        .build());
        DeviceRuntime device = DeviceRuntime.start(config, transport, new ChaCha20RandomSource(), clock);
        for (int i = 0; i < 2 * K; i++) {
            device.record(i % METHODS);
        }
        DeviceRuntime.EpochResult result = device.endEpoch();
        // The SDK's exit path for a runtime's own transport (DeviceRuntime's exit hook).
        boolean delivered = transport.flush(wait);
        if (!delivered) {
            transport.persistUndelivered(Duration.ofSeconds(1));
        }
        long reports = device.ledger().reports();
        device.close();
        int spooled = transport.spooled();
        var counters = transport.counters();
        transport.close(Duration.ofSeconds(1));
        System.out.printf("device run at %s (%d h ago) to %s: %s; reports made so far %d, sent by this run %d,"
                        + " waiting in the spool %d%n",
                clock.instant(), hoursAgo, bootstrap, result.outcome(), reports, counters.sent(), spooled);
        return result.outcome() == DeviceRuntime.Outcome.REPORTED ? 0 : 1;
    }
}
