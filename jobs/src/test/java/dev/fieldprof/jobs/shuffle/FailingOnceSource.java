package dev.fieldprof.jobs.shuffle;

import dev.fieldprof.jobs.io.RawRecord;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;

/**
 * A bounded, rate-limited source of fixed raw records that fails once, when it first reaches a
 * given record, and counts how often each record was generated: after a restore from a checkpoint
 * the records before it are not generated again.
 */
final class FailingOnceSource {
    static final Map<String, Boolean> FAILED = new ConcurrentHashMap<>();
    static final Map<String, AtomicIntegerArray> GENERATED = new ConcurrentHashMap<>();

    private FailingOnceSource() {}

    static DataGeneratorSource<RawRecord> of(
            List<RawRecord> records, long failAt, String id, double perSecond) {
        FAILED.remove(id);
        GENERATED.put(id, new AtomicIntegerArray(records.size()));
        return new DataGeneratorSource<>(
                new Lookup(records.toArray(new RawRecord[0]), failAt, id),
                records.size(),
                RateLimiterStrategy.perSecond(perSecond),
                TypeInformation.of(RawRecord.class));
    }

    private static final class Lookup implements GeneratorFunction<Long, RawRecord> {
        private static final long serialVersionUID = 1L;
        private final RawRecord[] records;
        private final long failAt;
        private final String id;

        Lookup(RawRecord[] records, long failAt, String id) {
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
}
