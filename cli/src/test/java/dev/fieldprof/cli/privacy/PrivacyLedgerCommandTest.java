package dev.fieldprof.cli.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.client.ledger.PrivacyBudget;
import dev.fieldprof.client.ledger.PrivacyLedger;
import dev.fieldprof.ldp.PrivacyParameters;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivacyLedgerCommandTest {
    @TempDir Path dir;
    private final CliCapture cli = new CliCapture();

    @Test
    void printsTheLedgerOfAStateDirectory() throws Exception {
        PrivacyLedger ledger =
                PrivacyLedger.open(
                        dir,
                        "device-1",
                        "demo:1.0",
                        "default",
                        new PrivacyParameters(Math.log(9), 2, 100),
                        24);
        ledger.recordReport(Instant.parse("2026-11-22T08:00:00Z"));
        ledger.recordReport(Instant.parse("2026-11-22T09:00:00Z"));
        PrivacyBudget budget = PrivacyBudget.open(dir, 500, java.time.Duration.ofDays(1));
        budget.spend(Instant.now(), ledger.userLevelEpsilonPerReport());
        budget.spend(Instant.now(), ledger.userLevelEpsilonPerReport());
        int exit = cli.run("privacy", "ledger", "--state-dir", dir.toString());
        assertThat(exit).isZero();
        assertThat(cli.out().lines())
                .containsExactly(
                        "device device-1",
                        "app-version demo:1.0",
                        "config default",
                        "epsilon-per-t-events 2.197225 (t=2, k=100)",
                        "user-level-epsilon-per-report 109.861229",
                        "reports 2",
                        "events-reported 200",
                        "user-level-epsilon 219.722458",
                        "reports-on-day 2 of 24 (2026-11-22)",
                        "epochs-skipped-by-cap 0",
                        "epochs-skipped-by-budget 0",
                        "last-report 2026-11-22T09:00:00Z",
                        "path-tracing off",
                        "path-reports 0",
                        "path-bytes 0",
                        "",
                        "user-level-epsilon-in-period 219.722458 of budget 500.000000 per PT24H");
    }

    /**
     * A shuffled configuration: epsilon0 per report on its own line, and apart from it what the
     * central guarantee depends on (no collusion, the minimum batch size, delta).
     */
    @Test
    void aShuffledConfigurationShowsEpsilon0AndWhatTheCentralGuaranteeDependsOn() throws Exception {
        PrivacyLedger ledger =
                PrivacyLedger.open(
                        dir,
                        "device-2",
                        "demo:2.0",
                        "shuffled",
                        new PrivacyParameters(
                                dev.fieldprof.schemas.PrivacyMode.USER_LEVEL, 4.0, 1, 1),
                        24,
                        java.time.Duration.ofSeconds(5),
                        new dev.fieldprof.schemas.ShufflerTerms(10_000, 1e-6));
        ledger.recordReport(Instant.parse("2026-11-22T08:00:00Z"));
        int exit = cli.run("privacy", "ledger", "--state-dir", dir.toString());
        assertThat(exit).isZero();
        assertThat(cli.out().lines())
                .containsExactly(
                        "device device-2",
                        "app-version demo:2.0",
                        "config shuffled",
                        "epsilon-per-t-events 4.000000 (t=1, k=1)",
                        "user-level-epsilon-per-report 4.000000",
                        "mode shuffled (reports leave sealed to the analyst's key, through the"
                                + " shuffler)",
                        "epsilon0-per-report 4.000000 (local: holds for each report whoever sees"
                                + " it; the figures below add it up)",
                        "central-guarantee-depends-on the shuffler not colluding with the analyst"
                                + " (if it does, only epsilon0 per report holds)",
                        "central-guarantee-min-batch-size 10000",
                        "central-guarantee-delta 1.0E-6",
                        "reports 1",
                        "events-reported 1",
                        "user-level-epsilon 4.000000",
                        "reports-on-day 1 of 24 (2026-11-22)",
                        "epochs-skipped-by-cap 0",
                        "epochs-skipped-by-budget 0",
                        "last-report 2026-11-22T08:00:00Z",
                        "path-tracing off",
                        "path-reports 0",
                        "path-bytes 0");
    }

    @Test
    void failsWithOneLineWithoutAStateDirectory() {
        int exit = cli.run("privacy", "ledger", "--state-dir", dir.resolve("missing").toString());
        assertThat(exit).isEqualTo(1);
        assertThat(cli.err().trim()).startsWith("fieldprof: no state directory at ");
    }
}
