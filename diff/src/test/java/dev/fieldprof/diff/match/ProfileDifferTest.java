package dev.fieldprof.diff.match;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.cct.CctNode;
import dev.fieldprof.diff.cct.Trees;
import dev.fieldprof.diff.normalize.ApplicationPackages;
import dev.fieldprof.diff.normalize.PreprocessingOptions;
import dev.fieldprof.diff.normalize.Preprocessor;
import dev.fieldprof.diff.read.CollapsedStacksReader;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProfileDifferTest {

    private static Path fixture(String name) throws URISyntaxException {
        return Path.of(ProfileDifferTest.class.getResource("/collapsed/" + name).toURI());
    }

    @Test
    void diffsTwoVersionsDespiteRenamedInternalsAndLambdaNames() throws Exception {
        CallingContextTree a = new CollapsedStacksReader().read(fixture("before.txt"));
        CallingContextTree b = new CollapsedStacksReader().read(fixture("after.txt"));
        Preprocessor preprocessor =
                new Preprocessor(
                        PreprocessingOptions.defaults()
                                .withApplicationPackages(
                                        ApplicationPackages.of(List.of("com.acme"))));

        ProfileDiff diff = new ProfileDiffer(preprocessor, 0).diff(a, b);

        assertThat(diff.matched())
                .extracting(
                        m -> m.a().method(), m -> m.a().cost(), m -> m.b().cost(), m -> m.exact())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                "com.fasterxml.jackson.databind.ObjectMapper.readValue",
                                40L,
                                90L,
                                true),
                        org.assertj.core.groups.Tuple.tuple(
                                "java.util.HashMap.get", 10L, 12L, true));
        assertThat(diff.matched().get(0).a().path())
                .containsExactly(
                        "java.lang.Thread.run",
                        "[app].run",
                        "com.fasterxml.jackson.databind.ObjectMapper.readValue");
        assertThat(diff.onlyInA())
                .extracting(Task::method)
                .containsExactly("java.io.PrintStream.println");
        assertThat(diff.onlyInB())
                .extracting(Task::method, Task::cost)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                "java.util.concurrent.ConcurrentHashMap.computeIfAbsent", 7L));
    }

    @Test
    void alphaOneMatchesATaskWhosePathGainedAFrame() {
        // B reaches the task through an executor: one more frame on the path.
        CallingContextTree a = Trees.parse("t(cb(io:5 db:9))");
        CallingContextTree b = Trees.parse("t(ex(cb(io:7 db:3)))");

        NodeMatching exact = new EflaskMatcher(0, LabelEquivalence.exactNames()).match(a, b);
        NodeMatching relaxed = new EflaskMatcher(1, LabelEquivalence.exactNames()).match(a, b);

        assertThat(exact.size()).isEqualTo(2); // root, t
        assertThat(relaxed.size()).isEqualTo(5); // root, t, cb, io, db
        CctNode io = a.find(List.of("t", "cb", "io"));
        assertThat(relaxed.ofA(io).b().path()).containsExactly("t", "ex", "cb", "io");
        assertThat(exact.ofA(io)).isNull();
    }

    @Test
    void alignsDifferentlyNamedEntriesWhoseSubtreesMatch() {
        // The same task through an alternative API (setImageBitmap vs setImageDrawable, §3.4.1).
        CallingContextTree a = Trees.parse("t(cb(setDrawable(decode draw)))");
        CallingContextTree b = Trees.parse("t(cb(setBitmap(decode draw)))");

        NodeMatching matching = new EflaskMatcher(1, LabelEquivalence.exactNames()).match(a, b);

        NodeMatching.Pair pair = matching.ofA(a.find(List.of("t", "cb", "setDrawable")));
        assertThat(pair.b().name()).isEqualTo("setBitmap");
        assertThat(pair.exact()).isFalse();
        assertThat(matching.size()).isEqualTo(5);
    }

    @Test
    void alphaZeroIsExactNameMatching() {
        long seed = 7L;
        Random random = new Random(seed);
        for (int round = 0; round < 50; round++) {
            CallingContextTree a = Trees.random(random, 300, 8, "abcde");
            CallingContextTree b = Trees.random(random, 300, 8, "abcde");
            NodeMatching matching = new EflaskMatcher(0, LabelEquivalence.exactNames()).match(a, b);

            Set<List<String>> expected = new HashSet<>();
            a.forEachPreorder(
                    v -> {
                        if (b.find(v.path()) != null) {
                            expected.add(v.path());
                        }
                    });
            Set<List<String>> actual = new HashSet<>();
            for (NodeMatching.Pair pair : matching.pairs()) {
                assertThat(pair.exact()).as("seed %d round %d", seed, round).isTrue();
                assertThat(pair.b().path()).isEqualTo(pair.a().path());
                actual.add(pair.a().path());
            }
            assertThat(actual).as("seed %d round %d", seed, round).isEqualTo(expected);
            assertThat(matching.size()).isEqualTo(expected.size());
        }
    }

    @Test
    void alphaZeroTaskDiffEqualsDiffByIdenticalCallPath() throws IOException, URISyntaxException {
        Random random = new Random(11);
        Preprocessor preprocessor =
                new Preprocessor(
                        PreprocessingOptions.namesOnly()
                                .withApplicationPackages(ApplicationPackages.of(List.of("app"))));
        for (int round = 0; round < 30; round++) {
            CallingContextTree a = appTree(random);
            CallingContextTree b = appTree(random);
            ProfileDiff diff = new ProfileDiffer(preprocessor, 0).diff(a, b);
            TaskExtractor tasks = new TaskExtractor(preprocessor::isApplication);
            Set<List<String>> pathsB = new HashSet<>();
            tasks.tasks(diff.b()).forEach(t -> pathsB.add(t.path()));
            Set<List<String>> expectedMatched = new HashSet<>();
            tasks.tasks(diff.a())
                    .forEach(
                            t -> {
                                if (pathsB.contains(t.path())) {
                                    expectedMatched.add(t.path());
                                }
                            });
            Set<List<String>> matched = new HashSet<>();
            diff.matched()
                    .forEach(
                            m -> {
                                assertThat(m.b().path()).isEqualTo(m.a().path());
                                matched.add(m.a().path());
                            });
            assertThat(matched).isEqualTo(expectedMatched);
        }
    }

    private static CallingContextTree appTree(Random random) {
        CallingContextTree tree = new CallingContextTree();
        String[] frames = {"fw.X.run", "fw.Y.call", "app.A.cb", "app.B.cb", "fw.Z.io"};
        for (int i = 0; i < 60; i++) {
            int depth = 1 + random.nextInt(6);
            List<String> path = new java.util.ArrayList<>();
            for (int d = 0; d < depth; d++) {
                path.add(frames[random.nextInt(frames.length)]);
            }
            tree.addStack(path, 1 + random.nextInt(9));
        }
        return tree;
    }
}
