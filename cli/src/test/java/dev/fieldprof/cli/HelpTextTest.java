package dev.fieldprof.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's {@code --help} renders without picocli's format warnings. */
class HelpTextTest {

    @Test
    void everyCommandsHelpFormatsWithoutWarnings() {
        List<CommandLine> commands = new ArrayList<>();
        collect(FieldprofCommand.commandLine(), commands);
        PrintStream original = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        // picocli reports a description it cannot format (an unescaped '%') on System.err.
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            for (CommandLine command : commands) {
                assertThat(command.getUsageMessage()).isNotBlank();
            }
        } finally {
            System.setErr(original);
        }
        assertThat(commands).hasSizeGreaterThan(20);
        assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    private static void collect(CommandLine command, List<CommandLine> into) {
        into.add(command);
        command.getSubcommands().values().stream().distinct().forEach(sub -> collect(sub, into));
    }
}
