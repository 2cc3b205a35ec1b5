package dev.fieldprof.client.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransportCountersTest {

    @Test
    void sumAddsEveryCounterAndEveryDropReason() {
        TransportCounters a =
                new TransportCounters(10, 7, 3, 1, 2, Map.of(DropReason.QUEUE_FULL, 4L));
        TransportCounters b =
                new TransportCounters(5, 5, 0, 0, 1, Map.of(DropReason.QUEUE_FULL, 1L));
        TransportCounters sum = TransportCounters.sum(List.of(a, b));
        assertThat(sum.submitted()).isEqualTo(15);
        assertThat(sum.sent()).isEqualTo(12);
        assertThat(sum.spooled()).isEqualTo(3);
        assertThat(sum.spooledNow()).isEqualTo(1);
        assertThat(sum.authenticationFailures()).isEqualTo(3);
        assertThat(sum.dropped(DropReason.QUEUE_FULL)).isEqualTo(5);
        assertThat(sum.droppedTotal()).isEqualTo(5);
        assertThat(TransportCounters.sum(List.of()).droppedTotal()).isZero();
    }
}
