package dev.fieldprof.cli.topics;

import dev.fieldprof.cli.options.KafkaBootstrap;
import dev.fieldprof.cli.options.KafkaClientProperties;
import dev.fieldprof.jobs.io.FieldprofAcls;
import dev.fieldprof.jobs.io.FieldprofAcls.Role;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.common.acl.AclBinding;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fieldprof topics acls}: each party's least privileges on the fieldprof topics. */
@Command(
        name = "acls",
        mixinStandardHelpOptions = true,
        description = {
            "Allow each party only what it needs on a cluster with an authorizer: devices write"
                    + " the two report topics and the shuffler's input and read edge models; the"
                    + " jobs read reports, shuffled batches, programs and edge models and write"
                    + " results, but never the shuffler's input; the shuffler reads its input and"
                    + " writes shuffled batches and dead letters; the operator creates fieldprof.*"
                    + " topics and publishes programs; readers read estimates, dead letters and"
                    + " programs."
                    + " Principals are TYPE:NAME, e.g. User:device. Run it as a user allowed to"
                    + " alter the cluster's ACLs.",
            "Exit 0 when every binding exists (created now or before), 1 with --check when some"
                    + " are missing."
        })
public final class TopicsAclsCommand implements Callable<Integer> {

    @Mixin KafkaBootstrap bootstrap;

    @Mixin KafkaClientProperties kafka;

    @Option(names = "--device", paramLabel = "PRINCIPAL", description = "The devices' principal.")
    String device;

    @Option(names = "--jobs", paramLabel = "PRINCIPAL", description = "The Flink jobs' principal.")
    String jobs;

    @Option(
            names = "--shuffler",
            paramLabel = "PRINCIPAL",
            description =
                    "The shuffler job's principal (another operator's account in the shuffled"
                            + " mode).")
    String shuffler;

    @Option(
            names = "--operator",
            paramLabel = "PRINCIPAL",
            description = "Who creates topics and publishes program models.")
    String operator;

    @Option(
            names = "--reader",
            paramLabel = "PRINCIPAL",
            description = "Consumers of estimates and dead letters (watch, monitor, diff).")
    String reader;

    @Option(
            names = "--group-prefix",
            defaultValue = "fieldprof-",
            description =
                    "Prefix of the jobs' consumer groups, their --group-id (default:"
                            + " ${DEFAULT-VALUE}).")
    String groupPrefix;

    @Option(
            names = "--transactional-id-prefix",
            defaultValue = "fieldprof-",
            description =
                    "Prefix of the jobs' transactional ids, their --transactional-id-prefix"
                            + " (default: ${DEFAULT-VALUE}).")
    String transactionalIdPrefix;

    @Option(
            names = "--shuffler-group-prefix",
            defaultValue = FieldprofAcls.SHUFFLER_PREFIX,
            description =
                    "Prefix of the shuffler's consumer groups, its --group-id (default:"
                            + " ${DEFAULT-VALUE}); keep it apart from --group-prefix.")
    String shufflerGroupPrefix;

    @Option(
            names = "--shuffler-transactional-id-prefix",
            defaultValue = FieldprofAcls.SHUFFLER_PREFIX,
            description =
                    "Prefix of the shuffler's transactional ids, its --transactional-id-prefix"
                            + " (default: ${DEFAULT-VALUE}); keep it apart from"
                            + " --transactional-id-prefix.")
    String shufflerTransactionalIdPrefix;

    @Option(
            names = "--check",
            description = "Only show which bindings exist and which are missing; change nothing.")
    boolean check;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Map<Role, String> principals = new LinkedHashMap<>();
        principals.put(Role.DEVICE, device);
        principals.put(Role.JOBS, jobs);
        principals.put(Role.SHUFFLER, shuffler);
        principals.put(Role.OPERATOR, operator);
        principals.put(Role.READER, reader);
        principals.values().removeIf(p -> p == null);
        if (principals.isEmpty()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "name at least one principal: --device, --jobs, --shuffler, --operator or"
                            + " --reader");
        }
        List<AclBinding> bindings = new ArrayList<>();
        try {
            principals.forEach(
                    (role, principal) -> {
                        boolean shuffles = role == Role.SHUFFLER;
                        bindings.addAll(
                                FieldprofAcls.bindings(
                                        role,
                                        principal,
                                        shuffles ? shufflerGroupPrefix : groupPrefix,
                                        shuffles
                                                ? shufflerTransactionalIdPrefix
                                                : transactionalIdPrefix));
                    });
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        int missing =
                FieldprofTopics.run(
                        kafka.connect(bootstrap.servers(), spec.commandLine()),
                        spec.commandLine().getOut(),
                        topics -> topics.grant(bindings, !check));
        return missing == 0 ? 0 : 1;
    }
}
