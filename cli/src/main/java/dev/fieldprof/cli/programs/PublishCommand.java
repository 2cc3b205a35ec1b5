package dev.fieldprof.cli.programs;

import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.options.DurationConverter;
import dev.fieldprof.cli.options.KafkaBootstrap;
import dev.fieldprof.cli.options.KafkaClientProperties;
import dev.fieldprof.cli.options.KafkaFailure;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.RecordMetadata;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fieldprof publish}: sends a program model to the jobs through the programs topic. */
@Command(
        name = "publish",
        mixinStandardHelpOptions = true,
        description =
                "Publish a program model (from 'fieldprof analyze') to the programs topic, so the"
                        + " jobs accept and estimate reports of its app version.")
public final class PublishCommand implements Callable<Integer> {

    @Mixin KafkaBootstrap bootstrap;

    @Mixin KafkaClientProperties kafka;

    @Option(names = "--model", required = true, paramLabel = "MODEL", description = "Model file.")
    Path model;

    @Option(
            names = "--topic",
            defaultValue = Topics.PROGRAMS,
            description = "Programs topic (default: ${DEFAULT-VALUE}).")
    String topic;

    @Option(
            names = "--timeout",
            defaultValue = "30s",
            converter = DurationConverter.class,
            description = "How long to wait for the broker (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (!Files.isRegularFile(model)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--model: no such file: " + model);
        }
        ProgramModel program;
        try {
            program = ProgramModels.read(model);
        } catch (RuntimeException e) {
            throw new CliFailure(
                    "--model " + model + " is not a program model: " + e.getMessage(), e);
        }
        java.util.Properties client =
                kafka.connect(bootstrap.servers(), spec.commandLine(), timeout);
        try {
            RecordMetadata written = ProgramPublisher.publish(client, topic, program, timeout);
            spec.commandLine()
                    .getOut()
                    .printf(
                            "published %s (%d methods, %d pairs) to %s partition %d offset %d%n",
                            program.getAppVersion(),
                            program.getMethods().size(),
                            program.getPairs().size(),
                            topic,
                            written.partition(),
                            written.offset());
            spec.commandLine().getOut().flush();
        } catch (IllegalStateException e) {
            throw KafkaFailure.of(e, client, e.getMessage());
        }
        return 0;
    }
}
