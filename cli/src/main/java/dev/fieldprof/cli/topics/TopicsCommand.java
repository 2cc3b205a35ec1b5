package dev.fieldprof.cli.topics;

import picocli.CommandLine.Command;

/** {@code fieldprof topics}: the fieldprof topics of an existing Kafka cluster. */
@Command(
        name = "topics",
        mixinStandardHelpOptions = true,
        description = {
            "Create and check the ten fieldprof topics on a Kafka cluster, and each party's"
                    + " ACLs.",
            "Report topics are stamped with the broker's append time (message.timestamp.type ="
                    + " LogAppendTime), so device clocks cannot steer the jobs' windows; programs,"
                    + " edge models and estimates (a changelog of each window's revisions) are"
                    + " compacted. Every topic bounds its records"
                    + " (max.message.bytes): 64 MiB for programs, edge models and estimates, 1 MiB"
                    + " for the others."
        },
        subcommands = {
            TopicsCreateCommand.class,
            TopicsCheckCommand.class,
            TopicsAclsCommand.class
        })
public final class TopicsCommand {}
