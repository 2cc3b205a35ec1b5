package dev.fieldprof.cli.topics;

import dev.fieldprof.cli.options.KafkaBootstrap;
import dev.fieldprof.cli.options.KafkaClientProperties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code fieldprof topics check}: shows whether the fieldprof topics are set up as needed. */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {
            "Show each fieldprof topic's settings against what fieldprof needs; changes nothing.",
            "Exit 0 when all ten exist with the settings fieldprof needs, 1 otherwise."
        })
public final class TopicsCheckCommand implements Callable<Integer> {

    @Mixin KafkaBootstrap bootstrap;

    @Mixin KafkaClientProperties kafka;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        int wrong =
                FieldprofTopics.run(
                        kafka.connect(bootstrap.servers(), spec.commandLine()),
                        spec.commandLine().getOut(),
                        FieldprofTopics::checkAll);
        return wrong == 0 ? 0 : 1;
    }
}
