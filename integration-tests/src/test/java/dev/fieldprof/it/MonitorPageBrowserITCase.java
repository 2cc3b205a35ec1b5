package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fieldprof.cli.browser.HeadlessChromium;
import dev.fieldprof.it.KnownReports.Report;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.monitor.FlinkJobHealth;
import dev.fieldprof.monitor.MonitorFeed;
import dev.fieldprof.monitor.MonitorHistory;
import dev.fieldprof.monitor.MonitorServer;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RecordCodec;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;

/**
 * The monitor page in the system's headless Chromium, fed by a bounded run of the real frequency
 * job on the embedded broker: reports in two bursts (the second once the first window's estimate is
 * out, so there are several windows) and three undecodable records. The page must draw a series per
 * top method whose band is exactly ĝ ± 1.96·se of each window's record, count the three dead
 * letters, and pin a searched method. Writes target/monitor-page.png. A second run opens the page
 * while the job runs and reports are still being sent: the windows drawn must grow from the event
 * stream without a reload, and the jobs' gauge of reports waiting for a model, read from the
 * MiniCluster's REST API, must show 0.
 */
class MonitorPageBrowserITCase {
    private static final long SEED = 20_260_115L;
    private static final String APP = "monitor-it:1.0";
    private static final long WINDOW = Duration.ofSeconds(2).toMillis();
    private static final int BAD_RECORDS = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder()
                    .partitions(2)
                    .taskSlots(2)
                    .fieldprofTopics(false)
                    .build();

    @TempDir Path dir;

    @Test
    void drawsSeriesWithBandsOf196StandardErrorsAndCountsDeadLetters() throws Exception {
        FrequencyJobTopics topics = FrequencyJobTopics.create(RUNTIME, 2);
        String edgeModels = RUNTIME.createRandomTopic(1, true);
        topics.publishModel(RUNTIME, APP);
        JobClient job = start(topics);
        List<EstimateWindow> estimates;
        try {
            List<Report> known = KnownReports.randomized(SEED, APP, "monitor", 60);
            List<ProducerRecord<String, byte[]>> bad = new ArrayList<>();
            for (int i = 0; i < BAD_RECORDS; i++) {
                bad.add(
                        new ProducerRecord<>(
                                topics.reports(),
                                i % 2,
                                null,
                                "garbage",
                                ("not a report " + i).getBytes(StandardCharsets.UTF_8)));
            }
            KnownReports.produce(
                    RUNTIME,
                    topics.reports(),
                    known.subList(0, 30),
                    r -> r.index() % 2,
                    r -> null,
                    bad);
            // The second burst once the first window is estimated: it lands in a later window.
            awaitEstimates(topics.estimates(), 2);
            KnownReports.produce(
                    RUNTIME,
                    topics.reports(),
                    known.subList(30, 60),
                    r -> r.index() % 2,
                    r -> null,
                    List.of());
            estimates = awaitCumulativeReports(topics.estimates(), 60);
            RUNTIME.awaitRecords(
                    topics.deadLetters(), new ByteArrayDeserializer(), BAD_RECORDS, TIMEOUT);
        } finally {
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
        Map<Long, Double> seByWindowEnd = new HashMap<>();
        for (EstimateWindow e : estimates) {
            if (!e.getCumulative()) {
                seByWindowEnd.put(e.getWindowEndMillis().toEpochMilli(), e.getStandardError());
            }
        }
        assertThat(seByWindowEnd).as("windows estimated").hasSizeGreaterThanOrEqualTo(2);

        MonitorHistory history = new MonitorHistory(30, 4, 10_000);
        AtomicBoolean stop = new AtomicBoolean();
        try (MonitorServer server = new MonitorServer("127.0.0.1", 0);
                MonitorFeed feed = feed(topics, edgeModels, history, server)) {
            Thread poller = new Thread(() -> feed.run(stop::get), "monitor-feed");
            poller.start();
            try (HeadlessChromium browser = HeadlessChromium.start(dir, 1280, 2300)) {
                WebDriver driver = browser.driver();
                driver.get(server.address().toString());
                JavascriptExecutor js = (JavascriptExecutor) driver;
                // Until the page has drawn every window and counted every dead letter.
                browser.await(
                        TIMEOUT,
                        "every window and every dead letter",
                        d ->
                                ((Number)
                                                                js.executeScript(
                                                                        "const s ="
                                                                            + " window.fieldprofMonitor.state;"
                                                                            + " return s &&"
                                                                            + " s.streams.length ?"
                                                                            + " s.streams[0].windows.length"
                                                                            + " : 0;"))
                                                        .intValue()
                                                == seByWindowEnd.size()
                                        && d.findElement(By.id("dead-letter-total"))
                                                .getText()
                                                .equals(String.valueOf(BAD_RECORDS)));

                assertThat(driver.findElements(By.cssSelector(".series-chart canvas")))
                        .as("a drawn chart per top method")
                        .hasSize(4);
                assertThat(
                                driver.findElement(
                                                By.cssSelector(
                                                        "#dead-letters"
                                                                + " tr[data-reason='UNDECODABLE']"
                                                                + " .count"))
                                        .getText())
                        .isEqualTo(String.valueOf(BAD_RECORDS));

                // The bands the charts draw: upper − lower per window, from uPlot's own data.
                @SuppressWarnings("unchecked")
                List<List<Object>> bands =
                        (List<List<Object>>)
                                js.executeScript(
                                        "return window.fieldprofMonitor.plots.flatMap(p =>"
                                                + " p.plot.data[0].map((x, i) => [x,"
                                                + " p.plot.data[2][i] - p.plot.data[1][i]]));");
                assertThat(bands).hasSize(4 * seByWindowEnd.size());
                for (List<Object> band : bands) {
                    long end = Math.round(((Number) band.get(0)).doubleValue() * 1000);
                    double width = ((Number) band.get(1)).doubleValue();
                    assertThat(width)
                            .as("band width of the window ending at %d", end)
                            .isCloseTo(2 * 1.96 * seByWindowEnd.get(end), within(1e-12));
                }
                // The JSON the page draws, read without the page: exactly 1.96 × se.
                JsonNode state = stateJson(server);
                for (JsonNode window : state.at("/streams/0/windows")) {
                    double se = seByWindowEnd.get(window.get("end").asLong());
                    assertThat(window.get("standardError").asDouble()).isEqualTo(se);
                    assertThat(window.get("halfWidth95").asDouble()).isEqualTo(1.96 * se);
                }
                assertThat(state.at("/deadLetters/byReason/UNDECODABLE").asLong())
                        .isEqualTo(BAD_RECORDS);
                assertThat(driver.findElement(By.id("reports-waiting")).getText())
                        .as("no Flink REST address given to this monitor")
                        .isEqualTo("n/a");
                assertThat(state.at("/streams/0/privacy/userEpsilon").asDouble())
                        .isEqualTo(KnownReports.EPSILON * KnownReports.K / KnownReports.T);

                assertThat(
                                stateJson(server, "Known37:")
                                        .at("/streams/0/series")
                                        .findValuesAsText("signature"))
                        .as(
                                "the pinned series, read without the page (feed: %s, undecodable"
                                        + " %d)",
                                feed.errors(), feed.undecodable())
                        .contains("<it.Known37: void run()>");
                driver.findElement(By.id("pin")).sendKeys("Known37:", Keys.ENTER);
                // The page redraws its charts with every estimate: read the title where it is
                // found.
                browser.await(
                        TIMEOUT,
                        "the pinned method's chart titled <it.Known37: void run()>",
                        d ->
                                d
                                        .findElements(
                                                By.cssSelector(".series-chart.pinned .chart-title"))
                                        .stream()
                                        .anyMatch(
                                                title ->
                                                        title.getText()
                                                                .equals(
                                                                        "<it.Known37: void"
                                                                                + " run()>")));

                browser.screenshot(Path.of("target", "monitor-page.png"));
            }
        } finally {
            stop.set(true);
        }
    }

    @Test
    void growsTheDrawnWindowsFromServerSentEventsWithoutReloadingAndShowsTheJobsGauge()
            throws Exception {
        FrequencyJobTopics topics = FrequencyJobTopics.create(RUNTIME, 2);
        String edgeModels = RUNTIME.createRandomTopic(1, true);
        topics.publishModel(RUNTIME, APP);
        List<Report> known = KnownReports.randomized(SEED + 1, APP, "live", 60);
        JobClient job = start(topics);
        MonitorHistory history = new MonitorHistory(30, 4, 10_000);
        AtomicBoolean stop = new AtomicBoolean();
        // As `monitor --flink-rest`: the MiniCluster running the job serves the REST API.
        FlinkJobHealth jobs = FlinkJobHealth.feeding(RUNTIME.flink().restAddress(), history);
        try (MonitorServer server = new MonitorServer("127.0.0.1", 0);
                MonitorFeed feed = feed(topics, edgeModels, history, server);
                HeadlessChromium browser = HeadlessChromium.start(dir, 1280, 2300)) {
            Thread poller = new Thread(() -> feed.run(stop::get), "monitor-feed");
            poller.start();
            KnownReports.produce(
                    RUNTIME,
                    topics.reports(),
                    known.subList(0, 30),
                    r -> r.index() % 2,
                    r -> null,
                    List.of());
            WebDriver driver = browser.driver();
            driver.get(server.address().toString());
            JavascriptExecutor js = (JavascriptExecutor) driver;
            browser.await(TIMEOUT, "the first window drawn", d -> drawnWindows(js) >= 1);
            int before = drawnWindows(js);
            // A property of this document only: a reload (or a new page) would lose it.
            js.executeScript("window.fieldprofSameDocument = true;");

            KnownReports.produce(
                    RUNTIME,
                    topics.reports(),
                    known.subList(30, 60),
                    r -> r.index() % 2,
                    r -> null,
                    List.of());
            browser.await(
                    TIMEOUT,
                    "a window more than the " + before + " drawn before the second burst",
                    d -> drawnWindows(js) > before);
            assertThat(js.executeScript("return window.fieldprofSameDocument === true;"))
                    .as("drawn by the open page from the event stream, not by a reload")
                    .isEqualTo(true);
            assertThat(
                            js.executeScript(
                                    "return performance.getEntriesByType('navigation').length;"))
                    .as("navigations of the page")
                    .isEqualTo(1L);

            // Every report has its program model: none waits, read from the job's own gauges.
            browser.await(
                    TIMEOUT,
                    "the jobs' gauge of reports waiting for a model",
                    d -> d.findElement(By.id("reports-waiting")).getText().equals("0"));
            assertThat(stateJson(server).at("/jobs/reportsWaitingForModel").asLong()).isZero();
            assertThat(stateJson(server).at("/jobs/source").asText())
                    .isEqualTo(RUNTIME.flink().restAddress().toString());
        } finally {
            stop.set(true);
            jobs.close();
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Windows on the x axis of the first series chart, from uPlot's own data. */
    private static int drawnWindows(JavascriptExecutor js) {
        return ((Number)
                        js.executeScript(
                                "const p = window.fieldprofMonitor.plots;"
                                        + " return p.length ? p[0].plot.data[0].length : 0;"))
                .intValue();
    }

    private static JsonNode stateJson(MonitorServer server) throws Exception {
        return stateJson(server, "");
    }

    private static JsonNode stateJson(MonitorServer server, String pin) throws Exception {
        HttpResponse<String> response =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                server.address()
                                                        .resolve(
                                                                "api/state.json?pin="
                                                                        + java.net.URLEncoder
                                                                                .encode(
                                                                                        pin,
                                                                                        StandardCharsets
                                                                                                .UTF_8)))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return new ObjectMapper().readTree(response.body());
    }

    private static JobClient start(FrequencyJobTopics topics) throws Exception {
        FrequencyJobOptions options =
                topics.options(
                        "monitor-it",
                        Map.of(
                                FrequencyJobOptions.WINDOW.key(), WINDOW + " ms",
                                FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), "1 s",
                                FrequencyJobOptions.SHARDS.key(), "2",
                                FrequencyJobOptions.OUT_OF_ORDERNESS.key(), "1 s",
                                FrequencyJobOptions.IDLENESS.key(), "1 s"));
        StreamExecutionEnvironment env = RUNTIME.environment();
        env.setParallelism(2);
        FrequencyEstimationJob.onKafka(options).buildInto(env);
        return env.executeAsync(FrequencyEstimationJob.NAME);
    }

    private static List<EstimateWindow> awaitEstimates(String topic, int count) {
        RecordCodec<EstimateWindow> codec = RecordCodec.of(EstimateWindow.class);
        List<EstimateWindow> out = new ArrayList<>();
        for (byte[] bytes :
                RUNTIME.awaitRecords(topic, new ByteArrayDeserializer(), count, TIMEOUT)) {
            out.add(codec.decode(bytes));
        }
        return out;
    }

    /** Every estimate once a cumulative one counts {@code reports}: the run is complete then. */
    private static List<EstimateWindow> awaitCumulativeReports(String topic, long reports) {
        for (int count = 2; ; count++) {
            List<EstimateWindow> estimates = awaitEstimates(topic, count);
            if (estimates.stream().anyMatch(e -> e.getCumulative() && e.getReports() == reports)) {
                return RUNTIME.drain(topic, new ByteArrayDeserializer()).stream()
                        .map(RecordCodec.of(EstimateWindow.class)::decode)
                        .toList();
            }
        }
    }

    /** The monitor's feed as `fieldprof monitor` starts it, on this test's topics. */
    private static MonitorFeed feed(
            FrequencyJobTopics topics,
            String edgeModels,
            MonitorHistory history,
            MonitorServer server) {
        return new MonitorFeed(
                RUNTIME.clientProperties(),
                new MonitorFeed.TopicNames(
                        topics.estimates(), topics.deadLetters(), edgeModels, topics.programs()),
                Duration.ofHours(1),
                null,
                history,
                server);
    }
}
