package dev.fieldprof.cli.jobs;

import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.jobs.io.TopicSettings;
import dev.fieldprof.jobs.paths.PathJobOptions;
import java.io.PrintWriter;
import java.util.List;

/**
 * Tells the user, before a job starts, when its report topic keeps the producers' clocks (device
 * clocks would then steer the windows) or is missing: the job logs the same on its cluster, where a
 * user who submitted it may never look.
 */
final class ReportTopicWarning {
    private ReportTopicWarning() {}

    /** Prints a warning line for {@code job} run with {@code jobArgs}, if there is one. */
    static void print(String job, List<String> jobArgs, PrintWriter err) {
        String[] args = jobArgs.toArray(String[]::new);
        String bootstrap;
        String topic;
        try {
            if (job.equals("paths")) {
                PathJobOptions options = PathJobOptions.parse(args);
                bootstrap = options.bootstrap();
                topic = options.reportsTopic();
            } else {
                FrequencyJobOptions options = FrequencyJobOptions.parse(args);
                bootstrap = options.bootstrap();
                topic = options.reportsTopic();
            }
        } catch (RuntimeException e) {
            return; // bad options are reported where they are parsed for the run itself
        }
        TopicSettings.reportTopicWarning(bootstrap, topic)
                .ifPresent(
                        warning -> {
                            err.println("warning: " + warning);
                            err.flush();
                        });
    }
}
