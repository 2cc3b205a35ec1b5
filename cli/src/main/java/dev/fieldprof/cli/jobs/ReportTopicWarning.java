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

    /**
     * Prints a warning line for {@code job} run with {@code jobArgs}, if there is one, asking the
     * brokers with {@code client} (the Kafka client properties, bootstrap servers included).
     */
    static void print(
            String job, List<String> jobArgs, java.util.Properties client, PrintWriter err) {
        if (job.equals("shuffler")) {
            return; // the shuffler keeps no time of its input: whose clock stamps it is moot
        }
        String[] args = jobArgs.toArray(String[]::new);
        String topic;
        try {
            topic =
                    job.equals("paths")
                            ? PathJobOptions.parse(args).reportsTopic()
                            : FrequencyJobOptions.parse(args).reportsTopic();
        } catch (RuntimeException e) {
            return; // bad options are reported where they are parsed for the run itself
        }
        TopicSettings.reportTopicWarning(client, topic)
                .ifPresent(
                        warning -> {
                            err.println("warning: " + warning);
                            err.flush();
                        });
    }
}
