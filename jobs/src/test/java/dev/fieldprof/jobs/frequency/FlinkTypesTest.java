package dev.fieldprof.jobs.frequency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.records.BatchedSum;
import dev.fieldprof.jobs.frequency.records.EstimatorState;
import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import dev.fieldprof.jobs.frequency.records.ReportBundle;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.frequency.records.ShardWindowSums;
import dev.fieldprof.jobs.frequency.records.ShuffledBatches;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import dev.fieldprof.jobs.frequency.validation.WaitingReport;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.RawRecord;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every record and state type of the job is a Flink POJO: no silent fallback to Kryo. */
class FlinkTypesTest {
    @ParameterizedTest
    @ValueSource(
            classes = {
                RawRecord.class,
                ReportRecord.class,
                ProgramUpdate.class,
                WindowSum.class,
                ShardWindowSums.class,
                ReportBundle.class,
                EncodedRecord.class,
                EstimatorState.class,
                PartialSum.class,
                WaitingReport.class,
                ShuffledBatches.class,
                BatchedSum.class
            })
    void isAPojo(Class<?> type) {
        assertThat(TypeInformation.of(type)).isInstanceOf(PojoTypeInfo.class);
    }
}
