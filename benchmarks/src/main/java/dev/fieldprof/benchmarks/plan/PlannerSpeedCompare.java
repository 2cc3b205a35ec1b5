package dev.fieldprof.benchmarks.plan;

import java.io.File;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@link PlannerSpeed} for two builds of the planner in one process, alternating: the baseline is a
 * directory of the planner module's classes (another commit's {@code
 * static-analysis/target/classes}) loaded ahead of this class path in its own class loader, the
 * current build is this class path as it is. Each round runs the baseline, then the current build,
 * with the same arguments; the table at the end puts every row's thread CPU seconds side by side
 * with the 60 s goal.
 *
 * <p>Arguments: {@code --baseline DIR} (required), {@code --rounds N} (default 2), then {@link
 * PlannerSpeed}'s own (event counts, {@code --strategies}, {@code --max-moves}, {@code --seed},
 * {@code --sha}).
 */
public final class PlannerSpeedCompare {

    private static final double GOAL_SECONDS = 60;

    private PlannerSpeedCompare() {}

    public static void main(String[] args) throws Exception {
        String baseline = null;
        int rounds = 2;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--baseline" -> baseline = args[++i];
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> rest.add(args[i]);
            }
        }
        if (baseline == null || !new File(baseline).isDirectory()) {
            throw new IllegalArgumentException(
                    "--baseline must name a directory of the planner's classes, was " + baseline);
        }
        String[] passed = rest.toArray(String[]::new);
        List<URL> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            classPath.add(url(entry));
        }
        List<URL> withBaseline = new ArrayList<>();
        withBaseline.add(url(baseline));
        withBaseline.addAll(classPath);
        String[] names = {"baseline", "current"};
        List<URL>[] paths = new List[] {withBaseline, classPath};
        List<double[]>[] cpus = new List[] {new ArrayList<>(), new ArrayList<>()};
        List<Double>[] loads = new List[] {new ArrayList<>(), new ArrayList<>()};
        PrintStream out = System.out;
        for (int round = 1; round <= rounds; round++) {
            for (int build = 0; build < 2; build++) {
                double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
                out.printf(
                        Locale.ROOT,
                        "%n# round %d, %s, load average %.2f%n",
                        round,
                        names[build],
                        load);
                loads[build].add(load);
                try (URLClassLoader loader =
                        new URLClassLoader(
                                paths[build].toArray(URL[]::new),
                                ClassLoader.getPlatformClassLoader())) {
                    Class<?> speed = loader.loadClass(PlannerSpeed.class.getName());
                    Method measure =
                            speed.getDeclaredMethod("measure", PrintStream.class, String[].class);
                    measure.setAccessible(true);
                    cpus[build].add((double[]) measure.invoke(null, out, (Object) passed));
                }
            }
        }
        out.printf("%nthread CPU s per row (row order as printed above), baseline | current%n");
        int rows = cpus[0].get(0).length;
        for (int row = 0; row < rows; row++) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "row %2d:", row + 1));
            for (int build = 0; build < 2; build++) {
                for (double[] run : cpus[build]) {
                    line.append(String.format(Locale.ROOT, " %8.2f", run[row]));
                }
                line.append(build == 0 ? "  |" : "");
            }
            double base = Double.MAX_VALUE;
            double cur = Double.MAX_VALUE;
            for (double[] run : cpus[0]) {
                base = Math.min(base, run[row]);
            }
            for (double[] run : cpus[1]) {
                cur = Math.min(cur, run[row]);
            }
            line.append(
                    String.format(
                            Locale.ROOT,
                            "   best current/baseline %.2f, goal %.0f s",
                            cur / base,
                            GOAL_SECONDS));
            out.println(line);
        }
        out.println(
                "load average at each run's start: baseline " + loads[0] + ", current " + loads[1]);
    }

    private static URL url(String entry) {
        try {
            return new File(entry).toURI().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("not a class path entry: " + entry, e);
        }
    }
}
