package dev.fieldprof.client.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.PathProbeSite;
import dev.fieldprof.client.PathProbes;
import dev.fieldprof.paths.CallSitePathEncoder;
import dev.fieldprof.paths.EdgeModel;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The traced thread's hot path allocates nothing: probe events through {@link PathProbeSite} and
 * {@link PathProbes} into a {@link PathTracer} whose reports are cut hundreds of times, measured
 * with the thread's own allocation counter around every single probe call. A call during which no
 * report was cut must allocate exactly 0 bytes; a call that cut a report (an exit) may allocate the
 * report: its coded bytes and the record that carries them.
 */
class PathTracerAllocationTest {
    /** Probe events measured, after as many again of warm-up. */
    static final int EVENTS = 1_000_000;

    /**
     * What a cut may allocate besides the coded byte[] (a 16-byte array header plus its length,
     * rounded up to 8): the Avro builder and record, the report id (UUID, its random bytes and its
     * 36-character String), the Instant and the ByteBuffer that wraps the bytes. Measured at up to
     * 648 bytes on JDK 17 (printed below); the bound leaves room for another JDK's UUID or Avro.
     */
    static final long RECORD_BYTES_PER_REPORT = 1024;

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private PathProbeSite site0;
    private PathProbeSite site1;
    private PathProbeSite site2;

    /** Reports seen by the sink, and their coded lengths, in arrays sized up front. */
    private int reports;

    private final int[] codedLengths = new int[1 << 16];

    // Allocation of the calls measured so far: without a cut, and with one (the report).
    private long events;
    private long hotBytes;
    private long cutBytes;
    private long cuts;
    private long maxRecordBytes;
    private long minRecordBytes;
    private long reportByteArrays;

    private static PathProbeSite dispatching(int methodId) {
        PathProbeSite site = PathProbes.site(methodId);
        assertThat(site).as("a traced method's site").isNotSameAs(PathProbeSite.UNTRACED);
        return site;
    }

    @AfterEach
    void off() {
        PathProbes.uninstall();
    }

    @Test
    void probeEventsAllocateNothingOutsideTheReportsTheyCut() {
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        threads.setThreadAllocatedMemoryEnabled(true);
        EdgeModelStore store = new EdgeModelStore("app:1", PathTracerTest.TABLE);
        PathReportSink sink =
                report -> {
                    codedLengths[reports % codedLengths.length] = report.getCoded().remaining();
                    reports++;
                };
        PathTracer tracer = new PathTracer("device-a", "app:1", 0, store, sink, 64, false);
        PathProbes.install(tracer);
        site0 = dispatching(0);
        site1 = dispatching(1);
        site2 = dispatching(2);

        runMetered(EVENTS); // warm-up: the JIT, the coder's position tables, the header arrays
        // A JIT compilation or deoptimization inside a metered call shows up as a few hundred bytes
        // once (seen: 464 in one round of 10^6 calls); a probe that allocates does so in every
        // round, 10^6 times. So one of up to five rounds must be exact.
        List<Long> hotBytesPerRound = new ArrayList<>();
        int reportsBefore;
        do {
            events = hotBytes = cutBytes = cuts = maxRecordBytes = reportByteArrays = 0;
            minRecordBytes = Long.MAX_VALUE;
            reportsBefore = reports;
            runMetered(EVENTS);
            hotBytesPerRound.add(hotBytes);
        } while (hotBytes != 0 && hotBytesPerRound.size() < 5);

        System.out.println("bytes allocated without a cut, per round: " + hotBytesPerRound);
        System.out.printf(
                "%d probe events: %d bytes allocated without a cut; %d cuts allocated %d bytes"
                        + " (%d of them the coded byte[]s; the rest %d to %d bytes per report)%n",
                events, hotBytes, cuts, cutBytes, reportByteArrays, minRecordBytes, maxRecordBytes);
        assertThat(events).isGreaterThanOrEqualTo(EVENTS);
        assertThat(reports - reportsBefore).as("reports cut while measured").isEqualTo((int) cuts);
        assertThat(cuts).as("reports cut while measured").isGreaterThan(500);
        assertThat(hotBytes).as("bytes allocated by probe calls that cut no report").isZero();
        assertThat(maxRecordBytes)
                .as("bytes per cut besides the coded byte[]")
                .isLessThanOrEqualTo(RECORD_BYTES_PER_REPORT);
        assertThat(tracer.droppedEvents()).isZero();
        assertThat(PathProbes.failures()).isZero();
    }

    /**
     * The encoder's own cut allocates its report's byte[] and nothing else, whatever the open
     * frames its header lists. A JIT compilation can show up as a few hundred bytes in a round, so
     * after two warm-up rounds one of up to five measured rounds must be exact; copying the
     * header's frames into new arrays at every cut would exceed every round by about 2 * (16 + 4 *
     * depth) bytes per report.
     */
    @Test
    void aCutAllocatesExactlyTheReportsBytesWhateverFramesAreOpen() {
        CallSitePathEncoder encoder =
                new CallSitePathEncoder(EdgeModel.uniform(PathTracerTest.TABLE));
        encoderRound(encoder);
        encoderRound(encoder);
        List<Long> excess = new ArrayList<>();
        for (int round = 0; round < 5 && !excess.contains(0L); round++) {
            excess.add(encoderRound(encoder));
        }
        System.out.println("20000 encoder cuts: bytes allocated beyond the reports' " + excess);
        assertThat(excess).as("bytes beyond the reports, per round").contains(0L);
        assertThat(encoder.droppedEvents()).isZero();
    }

    /** 20,000 reports cut with 1 to 12 frames open; returns the bytes allocated beyond them. */
    private long encoderRound(CallSitePathEncoder encoder) {
        long reportBytes = 0;
        long before = allocated();
        for (int i = 0; i < 20_000; i++) {
            int depth = 1 + i % 12;
            for (int d = 0; d < depth; d++) {
                encoder.enterMethod(1);
                encoder.branch(2, 0);
            }
            encoder.branch(2, 1);
            byte[] report = encoder.finishReport();
            reportBytes += (16 + report.length + 7) & ~7L; // array header, length, alignment
            for (int d = 0; d < depth; d++) {
                encoder.exitMethod(1);
            }
        }
        return allocated() - before - reportBytes;
    }

    /**
     * {@code minEvents} or a few more events of a program with a loop, skewed branches, a switch,
     * recursion and exceptional exits (PathTracerTest's workload), each probe call metered.
     */
    private void runMetered(int minEvents) {
        long target = events + minEvents;
        while (events < target) {
            Object h = enter(site0);
            for (int i = 0; i < 1000; i++) {
                branch(site0, h, 0, i % 9 == 8 ? 1 : 0);
                branch(site0, h, 5, i % 3 == 0 ? 2 : 0);
                recurse(i % 4);
                if (i % 25 == 24) {
                    Object h2 = enter(site2);
                    Object h1 = enter(site1);
                    exitExceptionally(site1, h1);
                    exitExceptionally(site2, h2);
                }
            }
            branch(site0, h, 0, 1);
            exit(site0, h);
        }
    }

    private void recurse(int depth) {
        Object h = enter(site1);
        branch(site1, h, 2, depth == 0 ? 1 : 0);
        if (depth > 0) {
            recurse(depth - 1);
        }
        exit(site1, h);
    }

    private long allocated() {
        return threads.getCurrentThreadAllocatedBytes();
    }

    private void account(long bytes, int reportsBefore) {
        events++;
        if (reports == reportsBefore) {
            hotBytes += bytes;
            return;
        }
        // One cut per probe call at most: the exit that reached the size limit.
        assertThat(reports).isEqualTo(reportsBefore + 1);
        long byteArray = (16 + codedLengths[reportsBefore % codedLengths.length] + 7) & ~7L;
        cuts++;
        cutBytes += bytes;
        reportByteArrays += byteArray;
        maxRecordBytes = Math.max(maxRecordBytes, bytes - byteArray);
        minRecordBytes = Math.min(minRecordBytes, bytes - byteArray);
    }

    private Object enter(PathProbeSite site) {
        int r = reports;
        long a = allocated();
        Object h = site.enter();
        account(allocated() - a, r);
        return h;
    }

    private void branch(PathProbeSite site, Object h, int block, int edge) {
        int r = reports;
        long a = allocated();
        site.branch(h, block, edge);
        account(allocated() - a, r);
    }

    private void exit(PathProbeSite site, Object h) {
        int r = reports;
        long a = allocated();
        site.exit(h);
        account(allocated() - a, r);
    }

    private void exitExceptionally(PathProbeSite site, Object h) {
        int r = reports;
        long a = allocated();
        site.exitExceptionally(h);
        account(allocated() - a, r);
    }
}
