package dev.fieldprof.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ReportWatermarksTest {
    private static final String TOPIC = "reports";
    private static final Duration OUT_OF_ORDERNESS = Duration.ofSeconds(10);

    private long now = 1_000_000;
    private final FakeEndOffsets kafka = new FakeEndOffsets();
    private final ReadProgress progress = ReadProgress.against(() -> kafka);
    private final Recorded output = new Recorded();
    private final ReportWatermarks watermarks =
            new ReportWatermarks(OUT_OF_ORDERNESS, progress, () -> now);

    @Test
    void trailsTheLatestReportTimeByTheOutOfOrderness() {
        open(2, split(0, 0));
        watermarks.onEvent(record(0, 0), 990_000, output);
        watermarks.onEvent(record(0, 1), 995_000, output);
        watermarks.onEvent(record(0, 2), 992_000, output);
        watermarks.onPeriodicEmit(output);

        assertThat(output.marks).containsExactly(984_999L);
    }

    @Test
    void aReportStampedInTheFutureCountsAsStampedNow() {
        open(2, split(0, 0));
        // A device clock 50 minutes ahead on a topic that keeps the producer's time.
        watermarks.onEvent(record(0, 0), now + Duration.ofMinutes(50).toMillis(), output);
        watermarks.onPeriodicEmit(output);

        assertThat(output.marks).containsExactly(now - 10_001);
    }

    /**
     * The backlog case: Kafka said at T that the partition reaches offset 500 while the job had
     * read to 101. However long the partition then delivers nothing (the source not polling, a slow
     * machine), the watermark stays with the records read; once offset 499 is read it follows T,
     * and a later observation, never the clock itself.
     */
    @Test
    void neverPassesAnObservationWhileThePartitionStillHeldUnreadRecords() {
        open(2, split(0, 100));
        watermarks.onEvent(record(0, 100), 990_000, output);
        long observedAt = now;
        kafka.observe(observedAt, Map.of(0, extent(0, 500)));
        for (int i = 0; i < 10; i++) {
            now += Duration.ofMinutes(10).toMillis();
            watermarks.onPeriodicEmit(output);
        }
        assertThat(output.marks).containsExactly(979_999L);

        watermarks.onEvent(record(0, 498), 995_000, output);
        watermarks.onPeriodicEmit(output);
        watermarks.onEvent(record(0, 499), 996_000, output);
        watermarks.onPeriodicEmit(output);
        kafka.observe(now, Map.of(0, extent(0, 500)));
        watermarks.onPeriodicEmit(output);

        assertThat(output.marks)
                .containsExactly(979_999L, 984_999L, observedAt - 10_001, now - 10_001);
    }

    @Test
    void aPartitionWithNothingToReadFollowsTheObservationWithoutARecord() {
        open(2, split(0, 42));
        watermarks.onPeriodicEmit(output);
        kafka.observe(now, Map.of(0, extent(7, 42)));
        watermarks.onPeriodicEmit(output);

        assertThat(output.marks).containsExactly(now - 10_001);
    }

    @Test
    void whereAReaderStartsWithoutAnOffsetOnlyAnEmptyPartitionCountsAsRead() {
        open(2, split(0, KafkaPartitionSplit.EARLIEST_OFFSET));
        kafka.observe(now, Map.of(0, extent(3, 9)));
        watermarks.onPeriodicEmit(output);
        assertThat(output.marks).isEmpty();

        kafka.observe(now, Map.of(0, extent(9, 9))); // all its records deleted
        watermarks.onPeriodicEmit(output);
        assertThat(output.marks).containsExactly(now - 10_001);
    }

    /**
     * A topic written in transactions: the reader's last record is at 6 and the commit marker at 7,
     * so its next offset (7) never reaches the end offset (8). It asks the observer about [7, 8);
     * once an observation says nothing is readable from 7 on, the watermark follows it.
     */
    @Test
    void followsAnObservationOnceOnlyMarkersAreLeftBelowTheEnd() {
        open(2, split(0, 5));
        watermarks.onEvent(record(0, 5), 990_000, output);
        watermarks.onEvent(record(0, 6), 991_000, output);
        kafka.observe(now, Map.of(0, extent(0, 8)));
        watermarks.onPeriodicEmit(output);
        assertThat(output.marks).containsExactly(980_999L);
        assertThat(kafka.asked).containsExactly("0:[7,8)");

        kafka.observe(now, Map.of(0, new EndOffsetObservation.Extent(0, 8, 7)));
        watermarks.onPeriodicEmit(output);
        assertThat(output.marks).containsExactly(980_999L, now - 10_001);
    }

    @Test
    void aRangeEstablishedFromBeyondTheReaderIsStillUnread() {
        open(2, split(0, 5));
        watermarks.onEvent(record(0, 5), 990_000, output);
        kafka.observe(now, Map.of(0, new EndOffsetObservation.Extent(0, 8, 7)));
        watermarks.onPeriodicEmit(output);

        assertThat(output.marks).containsExactly(979_999L);
        assertThat(kafka.asked).containsExactly("0:[6,8)");
    }

    @Test
    void followsOnlyWhenEveryPartitionOfTheSubtaskIsReadToItsEnd() {
        open(2, split(0, 10), split(2, 20));
        kafka.observe(now, Map.of(0, extent(0, 10), 1, extent(0, 99), 2, extent(0, 21)));
        watermarks.onPeriodicEmit(output);
        assertThat(output.marks).isEmpty();

        watermarks.onEvent(record(2, 20), 900_000, output);
        watermarks.onPeriodicEmit(output);
        assertThat(output.marks).containsExactly(now - 10_001);
    }

    @Test
    void aPartitionMissingFromTheObservationIsNotRead() {
        open(2, split(0, 10), split(5, 0));
        kafka.observe(now, Map.of(0, extent(0, 10)));
        watermarks.onPeriodicEmit(output);

        assertThat(output.marks).isEmpty();
    }

    @Test
    void neverTurnsIdleAndNeverGoesBack() {
        open(2, split(0, 0));
        kafka.observe(now, Map.of(0, extent(0, 0), 1, extent(0, 0)));
        watermarks.onPeriodicEmit(output);
        // A backlog record far in the past must not move the watermark back.
        watermarks.onEvent(record(0, 0), 1_000, output);
        watermarks.onPeriodicEmit(output);
        now += 30_000;
        kafka.observe(now, Map.of(0, extent(0, 1), 1, extent(0, 0)));
        watermarks.onPeriodicEmit(output);

        assertThat(output.marks).containsExactly(989_999L, 1_019_999L);
        assertThat(output.idleCalls).isZero();
    }

    @Test
    void aSubtaskWithoutAPartitionWaitsForItsAssignmentWhileThereAreEnoughPartitions() {
        open(2);
        kafka.observe(now, Map.of(0, extent(0, 0), 1, extent(0, 0)));
        watermarks.onPeriodicEmit(output);

        assertThat(output.marks).isEmpty();
        assertThat(output.idleCalls).isZero();
    }

    @Test
    void aSubtaskThatGetsNoPartitionIsIdleUntilItGetsOne() {
        open(3);
        kafka.observe(now, Map.of(0, extent(0, 5), 1, extent(0, 5)));
        watermarks.onPeriodicEmit(output);
        watermarks.onPeriodicEmit(output);
        assertThat(output.idleCalls).isEqualTo(1);

        progress.splitsAdded(List.of(split(1, 0)));
        watermarks.onPeriodicEmit(output);
        assertThat(output.activeCalls).isEqualTo(1);
        assertThat(output.marks).isEmpty();
    }

    @Test
    void aSourceThatIsNotKafkaFollowsItsRecordsAlone() {
        ReportWatermarks recordsOnly =
                new ReportWatermarks(OUT_OF_ORDERNESS, ReadProgress.none(), () -> now);
        recordsOnly.onPeriodicEmit(output);
        recordsOnly.onEvent(record(0, 0), 990_000, output);
        now += Duration.ofHours(1).toMillis();
        recordsOnly.onPeriodicEmit(output);

        assertThat(output.marks).containsExactly(979_999L);
        assertThat(output.idleCalls).isZero();
    }

    @Test
    void theObservationEndsWithTheReader() {
        open(2, split(0, 0));
        progress.readerClosed();

        assertThat(kafka.closed).isTrue();
    }

    private void open(int parallelism, KafkaPartitionSplit... splits) {
        progress.readerOpened(parallelism);
        progress.splitsAdded(List.of(splits));
    }

    private static KafkaPartitionSplit split(int partition, long startingOffset) {
        return new KafkaPartitionSplit(new TopicPartition(TOPIC, partition), startingOffset);
    }

    private static RawRecord record(int partition, long offset) {
        return new RawRecord(TOPIC, partition, offset, 0, null, null);
    }

    private static EndOffsetObservation.Extent extent(long logStart, long end) {
        return new EndOffsetObservation.Extent(logStart, end);
    }

    private static final class FakeEndOffsets implements EndOffsets {
        EndOffsetObservation latest;
        boolean closed;
        final List<String> asked = new ArrayList<>();

        void observe(long askedAt, Map<Integer, EndOffsetObservation.Extent> partitions) {
            latest = new EndOffsetObservation(askedAt, partitions);
        }

        @Override
        public EndOffsetObservation latest() {
            return latest;
        }

        @Override
        public void checkReadable(int partition, long from, long endOffset) {
            asked.add(partition + ":[" + from + "," + endOffset + ")");
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private static final class Recorded implements WatermarkOutput {
        final List<Long> marks = new ArrayList<>();
        int idleCalls;
        int activeCalls;

        @Override
        public void emitWatermark(Watermark watermark) {
            marks.add(watermark.getTimestamp());
        }

        @Override
        public void markIdle() {
            idleCalls++;
        }

        @Override
        public void markActive() {
            activeCalls++;
        }
    }
}
