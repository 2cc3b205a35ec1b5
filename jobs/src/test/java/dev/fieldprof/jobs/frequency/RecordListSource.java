package dev.fieldprof.jobs.frequency;

import dev.fieldprof.jobs.io.RawRecord;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;

/** A bounded source of fixed raw records, in order within each split. */
final class RecordListSource {
    private RecordListSource() {}

    static DataGeneratorSource<RawRecord> of(List<RawRecord> records) {
        return new DataGeneratorSource<>(
                new Lookup(records.toArray(new RawRecord[0])),
                records.size(),
                TypeInformation.of(RawRecord.class));
    }

    /** The records at {@code perSecond}, so that a faster input is read before most of them. */
    static DataGeneratorSource<RawRecord> slowly(List<RawRecord> records, double perSecond) {
        return new DataGeneratorSource<>(
                new Lookup(records.toArray(new RawRecord[0])),
                records.size(),
                org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy.perSecond(
                        perSecond),
                TypeInformation.of(RawRecord.class));
    }

    /**
     * A rate-limited source that fails once, when it first reaches {@code failAt}, and counts how
     * often each record was generated: after a restore from a checkpoint the records before it are
     * not generated again.
     */
    static DataGeneratorSource<RawRecord> failingOnce(
            List<RawRecord> records, long failAt, String id, double perSecond) {
        FAILED.remove(id);
        GENERATED.put(id, new java.util.concurrent.atomic.AtomicIntegerArray(records.size()));
        return new DataGeneratorSource<>(
                new FailingLookup(records.toArray(new RawRecord[0]), failAt, id),
                records.size(),
                org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy.perSecond(
                        perSecond),
                TypeInformation.of(RawRecord.class));
    }

    static final java.util.Map<String, Boolean> FAILED =
            new java.util.concurrent.ConcurrentHashMap<>();
    static final java.util.Map<String, java.util.concurrent.atomic.AtomicIntegerArray> GENERATED =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static final class FailingLookup implements GeneratorFunction<Long, RawRecord> {
        private static final long serialVersionUID = 1L;
        private final RawRecord[] records;
        private final long failAt;
        private final String id;

        FailingLookup(RawRecord[] records, long failAt, String id) {
            this.records = records;
            this.failAt = failAt;
            this.id = id;
        }

        @Override
        public RawRecord map(Long index) {
            if (index == failAt && FAILED.putIfAbsent(id, Boolean.TRUE) == null) {
                throw new IllegalStateException("injected failure at record " + index);
            }
            GENERATED.get(id).incrementAndGet(index.intValue());
            return records[index.intValue()];
        }
    }

    private static final class Lookup implements GeneratorFunction<Long, RawRecord> {
        private static final long serialVersionUID = 1L;
        private final RawRecord[] records;

        Lookup(RawRecord[] records) {
            this.records = records;
        }

        @Override
        public RawRecord map(Long index) {
            return records[index.intValue()];
        }
    }
}
