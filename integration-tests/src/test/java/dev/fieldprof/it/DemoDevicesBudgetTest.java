package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.fieldprof.bytecode.instrument.DeviceBudget;
import dev.fieldprof.cli.demo.DemoPrivacy;
import dev.fieldprof.cli.demo.DemoProgram;
import dev.fieldprof.cli.demo.SimulatedDevices;
import dev.fieldprof.client.transport.FileReportTransport;
import dev.fieldprof.client.transport.ReportFile;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.ProgramModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's privacy defaults on its real simulated devices (the sample program, the real
 * randomizer, reports written to a file): one user-level report a day at ε = ln 9, a budget that
 * refuses what goes beyond it as the devices' clocks pass through simulated days, and an ε-t
 * configuration no device could report under refused before anything starts.
 */
class DemoDevicesBudgetTest {
    private static final double LN9 = Math.log(9);

    @TempDir static Path work;
    private static DemoProgram program;

    @BeforeAll
    static void prepare() throws Exception {
        program = DemoProgram.prepare(SampleProgram.jar(work), work.resolve("demo"));
    }

    @Test
    void defaultDevicesReportOnceADayAtLn9AndTheBudgetRefusesTheRunsBetween() throws Exception {
        ProgramModel model = DemoPrivacy.DEFAULT.applyTo(program.model());
        Path file = work.resolve("every-8h.fpr");
        SimulatedDevices.Exposure exposure;
        long refusedByBudget;
        try (FileReportTransport transport = new FileReportTransport(file, 1_000);
                SimulatedDevices devices =
                        new SimulatedDevices(
                                model,
                                program.instrumentedJar(),
                                work.resolve("devices-8h"),
                                transport,
                                new SimulatedDevices.DeviceUse(
                                        3, 6, 50, Duration.ZERO, Duration.ofHours(8)),
                                DemoPrivacy.DEFAULT)) {
            devices.start();
            devices.awaitFinished();
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(devices.failures()).isZero();
            // Runs at 0h, 8h, ..., 40h: a report at 0h and 24h spends ln 9 each; the four runs
            // in between would exceed ln 9 within a day.
            assertThat(devices.reports()).isEqualTo(3 * 2);
            refusedByBudget = devices.refusedByBudget();
            exposure = devices.mostExposed();
            assertThat(devices.refusedByCap()).isZero();
        }
        assertThat(refusedByBudget).isEqualTo(3 * 4);
        List<FrequencyReport> reports = ReportFile.readAll(file);
        assertThat(reports).hasSize(6);
        assertThat(reports).allSatisfy(r -> assertThat(r.getK()).isEqualTo(1));
        assertThat(reports).allSatisfy(r -> assertThat(r.getEpsilon()).isEqualTo(LN9));
        assertThat(exposure.ledger().reports()).isEqualTo(2);
        assertThat(exposure.ledger().userLevelEpsilon()).isCloseTo(2 * LN9, within(1e-12));
        // The day that ends with the latest run (40h) holds the report of 24h.
        assertThat(exposure.spentInPeriod()).isCloseTo(LN9, within(1e-12));
        assertThat(exposure.simulatedUse()).isEqualTo(Duration.ofHours(48));
        assertThat(exposure.describe())
                .containsExactly(
                        "privacy (user-level): each report protects a device's whole run at eps"
                                + " 2.197; budget eps 2.197 per 1d",
                        "most-reporting device "
                                + exposure.ledger().deviceId()
                                + ": 2 reports in 2d of simulated use, eps 2.197 spent in the"
                                + " 1d up to its latest run, eps 4.394 over its whole history");
    }

    @Test
    void anEpsilonTConfigurationThatNoDeviceCouldReportUnderIsRefusedNamingTheCost() {
        DemoPrivacy epsilonT = new DemoPrivacy(PrivacyMode.EPSILON_T, LN9, DeviceBudget.DEFAULT);
        int k = program.model().getPrivacyConfigs().get(0).getK();
        assertThat(k).isEqualTo(5 * program.model().getMethods().size());
        assertThatThrownBy(() -> epsilonT.applyTo(program.model()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        String.format(
                                java.util.Locale.ROOT,
                                "each report of privacy configuration 'default' costs user-level"
                                        + " eps %.4g (epsilon-t: eps*k/t with k=%d, t=1), more"
                                        + " than the device budget eps 2.197 per PT24H: no device"
                                        + " could ever report; raise --budget, give --budget none,"
                                        + " or use --privacy-mode user-level",
                                LN9 * k,
                                k));
    }
}
