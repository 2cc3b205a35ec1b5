package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The {@code ./fieldprof} script's first build on a fresh clone (the README's first command). A
 * full build from scratch is too slow for a test, so this checks the one thing that broke it: a
 * module that depends on another's test jar cannot resolve it when the script skips building tests
 * ({@code -Dmaven.test.skip=true} also skips packaging test jars); {@code -DskipTests} builds them
 * and runs nothing.
 */
class FieldprofScriptTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theFirstBuildMakesTheTestJarsThatModulesDependOn() throws IOException {
        String script = Files.readString(ROOT.resolve("fieldprof"));
        assertThat(testJarDependents()).as("modules depending on a test jar").isNotEmpty();
        assertThat(script).contains("-DskipTests").doesNotContain("maven.test.skip");
    }

    private static List<Path> testJarDependents() throws IOException {
        try (Stream<Path> poms = Files.walk(ROOT, 3)) {
            return poms.filter(p -> p.getFileName().toString().equals("pom.xml"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .filter(FieldprofScriptTest::dependsOnATestJar)
                    .toList();
        }
    }

    private static boolean dependsOnATestJar(Path pom) {
        try {
            return Files.readString(pom).contains("<type>test-jar</type>");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
