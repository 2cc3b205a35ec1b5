package dev.fieldprof.client.transport;

import dev.fieldprof.schemas.FrequencyReport;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Test reports. */
public final class Reports {
    private Reports() {}

    public static FrequencyReport report(int i, int methods) {
        List<Integer> counts = new ArrayList<>();
        for (int v = 0; v < methods; v++) {
            counts.add((i + v) % 11);
        }
        return FrequencyReport.newBuilder()
                .setReportId("report-" + i)
                .setDeviceId("device-" + (i % 3))
                .setAppVersion("demo:1.0")
                .setConfigId("default")
                .setK(10)
                .setCreatedAtMillis(Instant.ofEpochMilli(1_700_000_000_000L + i))
                .setCounts(counts)
                .build();
    }
}
