package dev.fieldprof.cli.diff;

import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import dev.fieldprof.schemas.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where {@code fieldprof diff --estimates} gets its inputs: the newest cumulative EstimateWindow of
 * an app version from the estimates topic, or a saved estimate file; program models from files or
 * from the programs topic.
 *
 * <p>An estimate file holds exactly the bytes of one EstimateWindow record as it travels on the
 * topic (Avro single-object encoding: marker, schema fingerprint, body; {@link RecordCodec}), so
 * any later version of fieldprof reads it as it reads old records. {@code --save DIR} writes them.
 * {@code fieldprof plan --call-rates} reads its estimate the same way.
 */
public final class EstimateInputs {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
    private static final RecordCodec<EstimateWindow> ESTIMATES =
            RecordCodec.of(EstimateWindow.class);
    private static final RecordCodec<ProgramModel> MODELS = RecordCodec.of(ProgramModel.class);

    private EstimateInputs() {}

    /** An app version ({@code app:version}) or an estimate file. */
    public static boolean isFile(String operand) {
        return Files.isRegularFile(Path.of(operand));
    }

    /** Reads a saved estimate file. */
    public static EstimateWindow readFile(Path file) {
        try {
            return ESTIMATES.decode(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new CliFailure("cannot read " + file + ": " + e.getMessage(), e);
        } catch (RecordDecodingException | org.apache.avro.AvroRuntimeException e) {
            throw new CliFailure(
                    "not a fieldprof estimate file: " + file + " (" + e.getMessage() + ")", e);
        }
    }

    /** Writes the estimate as a file that {@link #readFile} reads. */
    public static Path save(EstimateWindow window, Path dir) {
        String name = window.getAppVersion().replaceAll("[^A-Za-z0-9._-]", "_") + ".estimate";
        Path file = dir.resolve(name);
        try {
            Files.createDirectories(dir);
            Files.write(file, ESTIMATES.encode(window));
        } catch (IOException e) {
            throw new CliFailure("cannot write " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    /** Reads and checks a program model file. */
    static ProgramModel readModel(Path file) {
        try {
            return dev.fieldprof.bytecode.model.ProgramModels.read(file);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(e.getMessage(), e);
        }
    }

    /**
     * The newest cumulative estimate of each requested app version on the estimates topic, of the
     * given configuration or of the only one. The topic is a changelog keyed by (app version,
     * config, generation, window): of an app version's cumulative estimates the one that ends last
     * is the newest, and of one that was published again (a revision, after late reports were
     * added) the highest revision ({@link #newer}). Records written before keys named more than the
     * app version are read too.
     *
     * @param configId the privacy configuration, or {@code null} when each version has one
     */
    public static List<EstimateWindow> newestCumulative(
            Properties client, List<String> appVersions, String configId) {
        String bootstrap = client.getProperty("bootstrap.servers");
        // appVersion -> configId -> newest window
        Map<String, Map<String, EstimateWindow>> newest = new TreeMap<>();
        long[] undecodable = {0};
        LatestRecords.drain(
                client,
                Topics.ESTIMATES,
                8 * 1024 * 1024,
                READ_TIMEOUT,
                record -> {
                    if (record.key() == null || record.value() == null) {
                        return;
                    }
                    String key = new String(record.key(), StandardCharsets.UTF_8);
                    int end = key.indexOf('\u0000');
                    String keyApp = end < 0 ? key : key.substring(0, end);
                    if (!appVersions.contains(keyApp)) {
                        return;
                    }
                    EstimateWindow window;
                    try {
                        window = ESTIMATES.decode(record.value());
                    } catch (RuntimeException e) {
                        undecodable[0]++;
                        return;
                    }
                    if (window.getCumulative() && window.getAppVersion().equals(keyApp)) {
                        newest.computeIfAbsent(keyApp, k -> new TreeMap<>())
                                .merge(
                                        window.getConfigId(),
                                        window,
                                        (held, read) -> newer(read, held) ? read : held);
                    }
                });
        List<EstimateWindow> out = new ArrayList<>();
        for (String appVersion : appVersions) {
            Map<String, EstimateWindow> byConfig = newest.getOrDefault(appVersion, Map.of());
            if (byConfig.isEmpty()) {
                throw new CliFailure(
                        "no cumulative estimate of "
                                + appVersion
                                + " on "
                                + Topics.ESTIMATES
                                + " at "
                                + bootstrap
                                + (undecodable[0] > 0
                                        ? " (" + undecodable[0] + " records not decodable)"
                                        : ""));
            }
            if (configId != null) {
                EstimateWindow window = byConfig.get(configId);
                if (window == null) {
                    throw new CliFailure(
                            appVersion
                                    + " has no estimate of config "
                                    + configId
                                    + "; it has "
                                    + new TreeSet<>(byConfig.keySet()));
                }
                out.add(window);
            } else if (byConfig.size() > 1) {
                throw new CliFailure(
                        appVersion
                                + " has estimates of several privacy configurations "
                                + new TreeSet<>(byConfig.keySet())
                                + ": choose one with --config");
            } else {
                out.add(byConfig.values().iterator().next());
            }
        }
        return out;
    }

    /**
     * Whether {@code read}, a cumulative estimate read after {@code held} (of the same app version
     * and config), replaces it: it ends later, or ends at the same time with a revision at least as
     * high (a window revised after late reports leaves the end where it was).
     */
    static boolean newer(EstimateWindow read, EstimateWindow held) {
        int byEnd = read.getWindowEndMillis().compareTo(held.getWindowEndMillis());
        return byEnd > 0 || (byEnd == 0 && read.getRevision() >= held.getRevision());
    }

    /**
     * The newest program model of each app version on the programs topic (compacted, keyed by app
     * version), {@code null} for a version that has none.
     */
    static List<ProgramModel> newestModels(Properties client, List<String> appVersions) {
        Map<String, byte[]> newest = new TreeMap<>();
        LatestRecords.drain(
                client,
                Topics.PROGRAMS,
                Topics.MAX_MODEL_BYTES + 1024 * 1024,
                READ_TIMEOUT,
                record -> {
                    if (record.key() == null) {
                        return;
                    }
                    String key = new String(record.key(), StandardCharsets.UTF_8);
                    if (appVersions.contains(key)) {
                        newest.put(key, record.value()); // a tombstone (null) removes it
                    }
                });
        List<ProgramModel> out = new ArrayList<>();
        for (String appVersion : appVersions) {
            byte[] bytes = newest.get(appVersion);
            ProgramModel model = null;
            if (bytes != null) {
                try {
                    model = MODELS.decode(bytes);
                    dev.fieldprof.bytecode.model.ProgramModelCheck.check(model);
                } catch (RuntimeException e) {
                    model = null;
                }
            }
            out.add(model);
        }
        return out;
    }
}
