package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The main code's packages depend on each other without a cycle, so that each can be read, tested
 * and moved with only what it depends on. A dependency is any mention of another fieldprof
 * package's class in a source file (import, fully qualified name, Javadoc link), read from every
 * module's {@code src/main/java}.
 */
class PackageCyclesTest {
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern NAME = Pattern.compile("\\b(dev\\.fieldprof\\.[\\w.]+)");

    @Test
    void noPackageDependsOnItselfThroughOthers() throws IOException {
        Map<String, String> sources = sources(Path.of("..").toAbsolutePath().normalize());
        Map<String, String> packageOfClass = new HashMap<>();
        Map<String, String> packageOfFile = new HashMap<>();
        for (Map.Entry<String, String> file : sources.entrySet()) {
            Matcher m = PACKAGE.matcher(file.getValue());
            if (m.find()) {
                String name = Path.of(file.getKey()).getFileName().toString();
                packageOfClass.put(
                        m.group(1) + "." + name.substring(0, name.length() - 5), m.group(1));
                packageOfFile.put(file.getKey(), m.group(1));
            }
        }
        Map<String, Set<String>> graph = new TreeMap<>();
        for (Map.Entry<String, String> file : sources.entrySet()) {
            String from = packageOfFile.get(file.getKey());
            if (from == null) {
                continue;
            }
            Matcher m = NAME.matcher(file.getValue());
            while (m.find()) {
                String to = packageOf(m.group(1), packageOfClass);
                if (to != null && !to.equals(from)) {
                    graph.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
                }
            }
        }
        assertThat(packageOfClass.values().stream().distinct().count())
                .as("packages read")
                .isGreaterThan(50);
        assertThat(cycles(graph)).as("package cycles").isEmpty();
    }

    /** The package of the longest prefix of {@code name} that is a class, or null. */
    private static String packageOf(String name, Map<String, String> packageOfClass) {
        String candidate = name;
        while (candidate.contains(".")) {
            String p = packageOfClass.get(candidate);
            if (p != null) {
                return p;
            }
            candidate = candidate.substring(0, candidate.lastIndexOf('.'));
        }
        return null;
    }

    private static Map<String, String> sources(Path root) throws IOException {
        Map<String, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file :
                    files.filter(p -> p.toString().endsWith(".java"))
                            .filter(p -> p.toString().contains("/src/main/java/"))
                            .filter(p -> !p.toString().contains("/target/"))
                            .toList()) {
                sources.put(root.relativize(file).toString(), Files.readString(file));
            }
        }
        return sources;
    }

    /** The strongly connected components of more than one package (Tarjan, iteratively). */
    private static List<Set<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> components = new ArrayList<>();
        int[] counter = {0};
        for (String start : graph.keySet()) {
            if (index.containsKey(start)) {
                continue;
            }
            Deque<Object[]> work = new ArrayDeque<>();
            work.push(new Object[] {start, graph.getOrDefault(start, Set.of()).iterator()});
            index.put(start, counter[0]);
            low.put(start, counter[0]++);
            stack.push(start);
            onStack.add(start);
            while (!work.isEmpty()) {
                Object[] frame = work.peek();
                String v = (String) frame[0];
                @SuppressWarnings("unchecked")
                java.util.Iterator<String> next = (java.util.Iterator<String>) frame[1];
                if (next.hasNext()) {
                    String w = next.next();
                    if (!index.containsKey(w)) {
                        index.put(w, counter[0]);
                        low.put(w, counter[0]++);
                        stack.push(w);
                        onStack.add(w);
                        work.push(new Object[] {w, graph.getOrDefault(w, Set.of()).iterator()});
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                    continue;
                }
                work.pop();
                if (!work.isEmpty()) {
                    String parent = (String) work.peek()[0];
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v).equals(index.get(v))) {
                    Set<String> component = new TreeSet<>();
                    String w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        component.add(w);
                    } while (!w.equals(v));
                    if (component.size() > 1) {
                        components.add(component);
                    }
                }
            }
        }
        return components;
    }
}
