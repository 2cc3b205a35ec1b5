package dev.fieldprof.jobs.frequency;

import dev.fieldprof.jobs.frequency.records.RawRecord;
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
