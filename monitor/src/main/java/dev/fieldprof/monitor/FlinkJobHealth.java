package dev.fieldprof.monitor;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Polls the frequency job's own gauges over Flink's REST API for the monitor's health panel: the
 * reports waiting for their program model (summed over the validation subtasks of every running
 * job) and how far they hold event time back (the largest hold). The estimates topic cannot tell
 * either. A failed reading is handed on too, with its reason and every value n/a, so that the page
 * never shows a stale number as current.
 */
public final class FlinkJobHealth implements AutoCloseable {
    /** The gauge of {@code ValidateReports}: reports held until their program model arrives. */
    public static final String WAITING_FOR_MODEL = "reportsWaitingForModel";

    /** The gauge of {@code ValidateReports}: how far the held reports keep event time back. */
    public static final String WATERMARK_HOLD_LAG = "watermarkHoldLagMillis";

    private final URI rest;
    private final FlinkRestGauges gauges;
    private ScheduledExecutorService schedule;

    /**
     * @param rest the JobManager's REST address, e.g. {@code http://127.0.0.1:8081}
     * @param requestTimeout how long one REST request may take
     */
    public FlinkJobHealth(URI rest, Duration requestTimeout) {
        this.rest = rest;
        this.gauges = new FlinkRestGauges(rest, requestTimeout);
    }

    /**
     * Polls the REST API at {@code rest} every 5 s into the history's job health: half of Flink's
     * default refresh of the metrics it serves ({@code metrics.fetcher.update-interval}, 10 s), so
     * that the page shows a new value within one refresh.
     */
    public static FlinkJobHealth feeding(URI rest, MonitorHistory history) {
        return new FlinkJobHealth(rest, Duration.ofSeconds(5))
                .start(Duration.ofSeconds(5), history::acceptJobHealth);
    }

    /** Reads the gauges once, now. */
    public MonitorState.JobHealth read() {
        try {
            FlinkRestGauges.Reading reading =
                    gauges.read(List.of(WAITING_FOR_MODEL, WATERMARK_HOLD_LAG));
            List<Long> waiting = reading.values().get(WAITING_FOR_MODEL);
            List<Long> holds = reading.values().get(WATERMARK_HOLD_LAG);
            return new MonitorState.JobHealth(
                    rest.toString(),
                    reading.runningJobs(),
                    waiting.isEmpty() ? null : waiting.stream().mapToLong(Long::longValue).sum(),
                    holds.isEmpty()
                            ? null
                            : holds.stream().mapToLong(Long::longValue).max().getAsLong(),
                    null);
        } catch (IOException | RuntimeException e) {
            return new MonitorState.JobHealth(
                    rest.toString(),
                    0,
                    null,
                    null,
                    // The JDK's ConnectException of a refused connection has no message.
                    e.getMessage() == null
                            ? e.getClass().getSimpleName()
                            : e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new MonitorState.JobHealth(rest.toString(), 0, null, null, "interrupted");
        }
    }

    /**
     * Reads the gauges now and then every {@code interval} on a daemon thread of its own (a slow
     * JobManager never delays the topics' feed), handing each reading to {@code sink}, e.g. {@link
     * MonitorHistory#acceptJobHealth}. Flink refreshes the metrics it serves every 10 s by default
     * ({@code metrics.fetcher.update-interval}): polling much faster shows nothing new.
     */
    public synchronized FlinkJobHealth start(
            Duration interval, Consumer<MonitorState.JobHealth> sink) {
        if (schedule != null) {
            throw new IllegalStateException("already started");
        }
        schedule =
                Executors.newSingleThreadScheduledExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "fieldprof-monitor-flink-rest");
                            thread.setDaemon(true);
                            return thread;
                        });
        schedule.scheduleWithFixedDelay(
                () -> {
                    try {
                        sink.accept(read());
                    } catch (RuntimeException e) {
                        // A task that throws is never run again: keep polling after a bad sink.
                    }
                },
                0,
                interval.toMillis(),
                TimeUnit.MILLISECONDS);
        return this;
    }

    @Override
    public synchronized void close() {
        if (schedule != null) {
            schedule.shutdownNow();
        }
    }
}
