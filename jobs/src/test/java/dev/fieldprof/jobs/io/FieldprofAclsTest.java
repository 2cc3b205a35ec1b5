package dev.fieldprof.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.jobs.io.FieldprofAcls.Role;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shuffled mode's trust domains as ACL bindings: who may touch the shuffler's two topics. */
class FieldprofAclsTest {

    private static List<String> described(Role role, String principal, String prefix) {
        return FieldprofAcls.bindings(role, principal, prefix, prefix).stream()
                .map(FieldprofAcls::describe)
                .toList();
    }

    @Test
    void theShufflerReadsItsInputAndWritesBatchesAndDeadLettersOnly() {
        assertThat(described(Role.SHUFFLER, "User:shuffler", FieldprofAcls.SHUFFLER_PREFIX))
                .containsExactly(
                        "allow User:shuffler READ on topic fieldprof.shuffler.input",
                        "allow User:shuffler DESCRIBE on topic fieldprof.shuffler.input",
                        "allow User:shuffler DESCRIBE_CONFIGS on topic fieldprof.shuffler.input",
                        "allow User:shuffler WRITE on topic fieldprof.reports.shuffled",
                        "allow User:shuffler DESCRIBE on topic fieldprof.reports.shuffled",
                        "allow User:shuffler DESCRIBE_CONFIGS on topic fieldprof.reports.shuffled",
                        "allow User:shuffler WRITE on topic fieldprof.shuffler.dead-letters",
                        "allow User:shuffler READ on topic fieldprof.shuffler.dead-letters",
                        "allow User:shuffler DESCRIBE on topic fieldprof.shuffler.dead-letters",
                        "allow User:shuffler DESCRIBE_CONFIGS on topic"
                                + " fieldprof.shuffler.dead-letters",
                        "allow User:shuffler READ on group fieldprof-shuffler*",
                        "allow User:shuffler DESCRIBE on group fieldprof-shuffler*",
                        "allow User:shuffler WRITE on transactional id fieldprof-shuffler*",
                        "allow User:shuffler DESCRIBE on transactional id fieldprof-shuffler*");
    }

    @Test
    void theAnalystsJobsReadShuffledBatchesButNeverTheShufflersInput() {
        List<String> jobs = described(Role.JOBS, "User:jobs", "fieldprof-");
        assertThat(jobs)
                .contains(
                        "allow User:jobs READ on topic fieldprof.reports.shuffled",
                        "allow User:jobs DESCRIBE on topic fieldprof.reports.shuffled",
                        "allow User:jobs DESCRIBE_CONFIGS on topic fieldprof.reports.shuffled");
        assertThat(jobs).noneMatch(binding -> binding.contains("fieldprof.shuffler.input"));
        assertThat(jobs).noneMatch(binding -> binding.contains("fieldprof.shuffler."));
        assertThat(described(Role.READER, "User:reader", "fieldprof-"))
                .noneMatch(binding -> binding.contains("shuffle"));
    }

    @Test
    void devicesWriteTheShufflersInputButDoNotReadIt() {
        assertThat(described(Role.DEVICE, "User:device", "fieldprof-"))
                .containsExactly(
                        "allow User:device WRITE on topic fieldprof.reports.frequency",
                        "allow User:device DESCRIBE on topic fieldprof.reports.frequency",
                        "allow User:device WRITE on topic fieldprof.shuffler.input",
                        "allow User:device DESCRIBE on topic fieldprof.shuffler.input",
                        "allow User:device WRITE on topic fieldprof.reports.paths",
                        "allow User:device DESCRIBE on topic fieldprof.reports.paths",
                        "allow User:device READ on topic fieldprof.models.edges",
                        "allow User:device DESCRIBE on topic fieldprof.models.edges");
    }
}
