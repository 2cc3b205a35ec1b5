package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.frequency.records.EncodedRecord;
import dev.fieldprof.jobs.frequency.records.RawRecord;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;

/** Bounded raw-record source and in-JVM collecting sink for the path job's MiniCluster test. */
final class PathJobTestIo {
    private PathJobTestIo() {}

    static DataGeneratorSource<RawRecord> source(List<RawRecord> records) {
        RawRecord[] all = records.toArray(new RawRecord[0]);
        return new DataGeneratorSource<>(
                new Lookup(all), all.length, TypeInformation.of(RawRecord.class));
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

    static final class Collecting implements Sink<EncodedRecord> {
        private static final long serialVersionUID = 1L;
        private static final Map<String, Queue<EncodedRecord>> RECEIVED = new ConcurrentHashMap<>();
        private final String id = UUID.randomUUID().toString();

        Collecting() {
            RECEIVED.put(id, new ConcurrentLinkedQueue<>());
        }

        List<EncodedRecord> received() {
            return List.copyOf(RECEIVED.get(id));
        }

        @Override
        public SinkWriter<EncodedRecord> createWriter(WriterInitContext context) {
            Queue<EncodedRecord> queue = RECEIVED.get(id);
            return new SinkWriter<>() {
                @Override
                public void write(EncodedRecord element, Context context) {
                    queue.add(element);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
