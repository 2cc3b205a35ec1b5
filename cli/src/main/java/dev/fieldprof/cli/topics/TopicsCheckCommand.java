package dev.fieldprof.cli.topics;

import dev.fieldprof.cli.CliFailure;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fieldprof topics check}: shows whether the fieldprof topics are set up as needed. */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {
            "Show each fieldprof topic's settings against what fieldprof needs; changes nothing.",
            "Exit 0 when all six exist with the settings fieldprof needs, 1 otherwise."
        })
public final class TopicsCheckCommand implements Callable<Integer> {

    @Option(
            names = "--bootstrap",
            required = true,
            paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers.")
    String bootstrap;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (FieldprofTopics topics = new FieldprofTopics(bootstrap, spec.commandLine().getOut())) {
            int wrong = topics.checkAll();
            spec.commandLine().getOut().flush();
            return wrong == 0 ? 0 : 1;
        } catch (ExecutionException e) {
            throw new CliFailure("kafka at " + bootstrap + ": " + e.getCause().getMessage(), e);
        } catch (TimeoutException e) {
            throw new CliFailure("kafka at " + bootstrap + " did not answer within 30 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliFailure("interrupted", e);
        }
    }
}
