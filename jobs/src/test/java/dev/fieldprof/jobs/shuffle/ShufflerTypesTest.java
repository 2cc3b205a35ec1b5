package dev.fieldprof.jobs.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The records between the shuffler's operators and in its state are Flink POJOs: serialized by
 * Flink's own serializer (evolvable state), never by Kryo.
 */
class ShufflerTypesTest {
    @ParameterizedTest
    @ValueSource(classes = {SealedRecord.class, HeldReport.class, ReleasedPart.class})
    void isAPojo(Class<?> type) {
        assertThat(TypeInformation.of(type)).isInstanceOf(PojoTypeInfo.class);
    }
}
