package dev.fieldprof.diff.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.cct.CctNode;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CollapsedStacksReaderTest {

    static Path fixture(String name) {
        try {
            return Path.of(
                    CollapsedStacksReaderTest.class.getResource("/collapsed/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void readsStacksWithCountsAndDottedClassNames() throws IOException {
        CallingContextTree tree = new CollapsedStacksReader().read(fixture("before.txt"));

        assertThat(tree.totalCost()).isEqualTo(58);
        assertThat(tree.size()).isEqualTo(1 + 8);
        CctNode lambda =
                tree.find(
                        List.of(
                                "java.lang.Thread.run_[j]",
                                "com.acme.Server$$Lambda$41.0x0000000800c01234.run_[j]"));
        assertThat(lambda).isNotNull();
        assertThat(lambda.inclusive()).isEqualTo(58);
        assertThat(lambda.exclusive()).isEqualTo(3);
        CctNode get =
                tree.find(
                        List.of(
                                "java.lang.Thread.run_[j]",
                                "com.acme.Server$$Lambda$41.0x0000000800c01234.run_[j]",
                                "com.acme.Server.handle_[j]",
                                "java.util.HashMap.get_[j]"));
        assertThat(get.inclusive()).isEqualTo(10);
    }

    @Test
    void isChosenForTextFiles() throws IOException {
        assertThat(ProfileReaders.standard().forFile(fixture("before.txt")).format())
                .isEqualTo("collapsed");
    }

    @Test
    void rejectsLineWithoutCountNamingTheLine(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("bad.txt");
        Files.writeString(file, "a;b 3\na;b;c\n");
        assertThatThrownBy(() -> new CollapsedStacksReader().read(file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("bad.txt:2");
    }
}
