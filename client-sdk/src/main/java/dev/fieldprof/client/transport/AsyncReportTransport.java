package dev.fieldprof.client.transport;

import dev.fieldprof.schemas.FrequencyReport;
import java.time.Duration;

/** The shared background half ({@link AsyncPublisher}) of the frequency report transports. */
public abstract class AsyncReportTransport extends AsyncPublisher<FrequencyReport>
        implements ReportTransport {

    /**
     * @param name suffix of the publisher thread's name
     * @param queueCapacity reports waiting at most, >= 1
     * @param idleTick how often {@link #idle()} runs when nothing is queued, > 0
     */
    protected AsyncReportTransport(String name, int queueCapacity, Duration idleTick) {
        super(name, queueCapacity, idleTick);
    }
}
