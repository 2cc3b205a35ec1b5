package dev.fieldprof.client.transport;

import dev.fieldprof.schemas.FrequencyReport;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Hands each report to a callback on the transport's background thread: for simulators that collect
 * reports in process, for tests, and (with a no-op callback) for {@code transport=none}. A callback
 * that throws counts {@link DropReason#REJECTED}.
 */
public final class CallbackReportTransport extends AsyncReportTransport {
    private final Consumer<FrequencyReport> callback;

    /**
     * Creates the transport. Thread-safe; {@code callback} runs on one background thread.
     *
     * <pre>{@code
     * List<FrequencyReport> seen = new CopyOnWriteArrayList<>();
     * ReportTransport transport = new CallbackReportTransport(seen::add, 1024);
     * }</pre>
     *
     * @param queueCapacity reports waiting at most, >= 1
     */
    public CallbackReportTransport(Consumer<FrequencyReport> callback, int queueCapacity) {
        super("callback", queueCapacity, Duration.ofSeconds(1));
        if (callback == null) {
            throw new IllegalArgumentException("callback must not be null");
        }
        this.callback = callback;
        start();
    }

    @Override
    protected void deliver(FrequencyReport report) {
        try {
            callback.accept(report);
            stats.sent();
        } catch (RuntimeException e) {
            stats.dropped(DropReason.REJECTED);
        }
    }
}
