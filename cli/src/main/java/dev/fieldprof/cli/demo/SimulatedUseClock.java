package dev.fieldprof.cli.demo;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A simulated device's clock: each program run it finishes moves it on by a fixed span of use (a
 * day by default), so that a demo of a few minutes shows what weeks of use cost: the device's
 * budget and daily cap see the days pass. Thread-safe: the device's thread advances it, the view
 * reads it.
 */
final class SimulatedUseClock extends Clock {
    private final Instant start;
    private final Duration perRun;
    private final AtomicLong runs = new AtomicLong();

    /**
     * @param start the instant of the first run
     * @param perRun the span of use one program run stands for, > 0
     */
    SimulatedUseClock(Instant start, Duration perRun) {
        if (perRun.isNegative() || perRun.isZero()) {
            throw new IllegalArgumentException(
                    "a run must stand for a positive span, got " + perRun);
        }
        this.start = start;
        this.perRun = perRun;
    }

    /** One more run is over: the clock moves on by the span of one run. */
    void runEnded() {
        runs.incrementAndGet();
    }

    /**
     * When the latest run began (the start before any run): what the device last did, and the end
     * of the period its budget is shown for. The clock itself already stands at the next run.
     */
    Instant latestRun() {
        long done = runs.get();
        return start.plus(perRun.multipliedBy(Math.max(0, done - 1)));
    }

    /** The simulated use so far. */
    Duration elapsed() {
        return perRun.multipliedBy(runs.get());
    }

    @Override
    public Instant instant() {
        return start.plus(elapsed());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a simulated device's clock is in UTC");
    }
}
