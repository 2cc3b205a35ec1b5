package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.io.RawRecord;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
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
}
