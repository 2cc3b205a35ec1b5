package dev.fieldprof.benchmarks.load;

import dev.fieldprof.estimation.chart.ChartImage;
import dev.fieldprof.estimation.chart.Legend;
import dev.fieldprof.estimation.chart.Palette;
import dev.fieldprof.estimation.chart.PlotArea;
import dev.fieldprof.estimation.chart.Scale;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The load curve of benchmarks/load-curve.sh: reads its results (one line per run: the runtime, a
 * tab, and the JSON that {@code fieldprof load --json} wrote), prints the Markdown table and draws
 * the PNG: throughput (sent and counted reports/s) and latency (report → committed estimate p50 and
 * p99, window end → committed) against the target rate, one colour per runtime. Plain Java2D (the
 * charts of {@code dev.fieldprof.estimation.chart}), headless; it runs with Java's source launcher
 * with the CLI jar, which brings the estimation module, on the class path.
 *
 * <pre>
 * java -cp cli/target/fieldprof-cli.jar \
 *     benchmarks/src/main/java/dev/fieldprof/benchmarks/load/LoadCurveChart.java RESULTS PNG
 * </pre>
 */
public final class LoadCurveChart {
    private static final int PANEL_WIDTH = 560;
    private static final int PANEL_HEIGHT = 380;
    private static final int MARGIN = 62;

    /** One load run: the figures of {@code fieldprof load --json} that the curve uses. */
    record Run(
            String runtime,
            double target,
            double sent,
            double counted,
            double p50,
            double p95,
            double p99,
            double lagP95,
            double firstLag,
            double lastLag,
            long made,
            long countedReports,
            long deadLetters,
            boolean exact) {

        /**
         * Whether the pipeline kept up: the devices reached 95% of the target, the job counted
         * every report once (none late, none lost) and the window lag did not grow by more than 5 s
         * from the first full window to the last. The counted rate is shown but not judged: with
         * three full windows it follows the devices' own bursts as much as the job.
         */
        boolean keptUp() {
            return sent >= 0.95 * target && exact && !(lastLag - firstLag > 5_000);
        }

        String verdict() {
            if (keptUp()) {
                return "yes";
            }
            List<String> why = new ArrayList<>();
            if (sent < 0.95 * target) {
                why.add("devices reached " + Math.round(100 * sent / target) + "% of the target");
            }
            if (!exact) {
                why.add(
                        countedReports
                                + " of "
                                + made
                                + " counted, "
                                + deadLetters
                                + " dead letters");
            }
            if (lastLag - firstLag > 5_000) {
                why.add(
                        String.format(
                                Locale.ROOT,
                                "lag grew %.1f s → %.1f s",
                                firstLag / 1000,
                                lastLag / 1000));
            }
            return "no: " + String.join("; ", why);
        }
    }

    private LoadCurveChart() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: LoadCurveChart RESULTS PNG");
            System.exit(2);
        }
        List<Run> runs = read(Path.of(args[0]));
        System.out.print(table(runs));
        write(runs, Path.of(args[1]));
    }

    static List<Run> read(Path results) throws IOException {
        List<Run> runs = new ArrayList<>();
        for (String line : Files.readAllLines(results)) {
            int tab = line.indexOf('\t');
            if (tab < 0) {
                continue;
            }
            String json = line.substring(tab + 1);
            runs.add(
                    new Run(
                            line.substring(0, tab),
                            number(json, "targetRate"),
                            number(json, "sentPerSecond"),
                            number(json, "countedPerSecond"),
                            number(json, "p50"),
                            number(json, "p95"),
                            number(json, "p99"),
                            number(json, "lagMillis\": \\{\"p50\": [0-9]+, \"p95"),
                            number(json, "firstLagMillis"),
                            number(json, "lastLagMillis"),
                            (long) number(json, "made"),
                            (long) number(json, "counted"),
                            (long) number(json, "deadLetters"),
                            json.contains("\"exact\": true")));
        }
        return runs;
    }

    /** The value after {@code "key": }, NaN when it is null or missing. */
    private static double number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": (-?[0-9.]+|null)").matcher(json);
        return m.find() && !m.group(1).equals("null") ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    static String table(List<Run> runs) {
        StringBuilder out = new StringBuilder();
        out.append(
                "| runtime | target/s | sent/s | counted/s | latency p50 | p95 | p99 | window lag"
                    + " p95 | lag first → last full window | reports (counted/made) | kept up |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|\n");
        for (Run r : runs) {
            out.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %.0f | %.0f | %s | %s | %s | %s | %s | %s → %s | %d/%d | %s"
                                    + " |%n",
                            r.runtime(),
                            r.target(),
                            r.sent(),
                            Double.isNaN(r.counted())
                                    ? "n/a"
                                    : String.format(Locale.ROOT, "%.0f", r.counted()),
                            seconds(r.p50()),
                            seconds(r.p95()),
                            seconds(r.p99()),
                            seconds(r.lagP95()),
                            seconds(r.firstLag()),
                            seconds(r.lastLag()),
                            r.countedReports(),
                            r.made(),
                            r.verdict()));
        }
        return out.toString();
    }

    private static String seconds(double millis) {
        return Double.isNaN(millis) ? "n/a" : String.format(Locale.ROOT, "%.1f s", millis / 1000);
    }

    static void write(List<Run> runs, Path file) throws IOException {
        Map<String, List<Run>> byRuntime = new LinkedHashMap<>();
        for (Run run : runs) {
            byRuntime.computeIfAbsent(run.runtime(), k -> new ArrayList<>()).add(run);
        }
        ChartImage image = new ChartImage(2 * PANEL_WIDTH, PANEL_HEIGHT + 80);
        image.title("fieldprof load: frequency job throughput and latency against the target rate");
        double maxTarget = runs.stream().mapToDouble(Run::target).max().orElse(1);
        double minTarget = runs.stream().mapToDouble(Run::target).min().orElse(1);
        List<Series> throughput = new ArrayList<>();
        List<Series> latency = new ArrayList<>();
        int c = 0;
        for (Map.Entry<String, List<Run>> e : byRuntime.entrySet()) {
            // three colours, as many runtimes as the script knows, and then some
            Color color = Palette.series(c++ % 3);
            List<Run> r = e.getValue();
            throughput.add(
                    new Series(e.getKey() + ": sent", color, Palette.SOLID, r, Run::sent, 1));
            throughput.add(
                    new Series(
                            e.getKey() + ": counted by the job",
                            color,
                            Palette.DASHED,
                            r,
                            Run::counted,
                            1));
            latency.add(
                    new Series(
                            e.getKey() + ": latency p50", color, Palette.SOLID, r, Run::p50, 1000));
            latency.add(
                    new Series(
                            e.getKey() + ": latency p99",
                            color,
                            Palette.DASHED,
                            r,
                            Run::p99,
                            1000));
            latency.add(
                    new Series(
                            e.getKey() + ": window lag p95",
                            color,
                            Palette.DOTTED,
                            r,
                            Run::lagP95,
                            1000));
        }
        // Targets double from run to run: the x axis is log, ticked at each doubling.
        Scale targets = Scale.log(minTarget, Math.max(maxTarget, minTarget * 2));
        Scale rates =
                Scale.logDecades(Math.max(1, minTarget / 2), Math.max(maxTarget, max(throughput)));
        Scale seconds = Scale.linear(0, Math.max(1, Math.ceil(max(latency) / 5) * 5));
        Graphics2D g = image.graphics();
        PlotArea left = plot(0, targets, rates);
        axes(
                g,
                left,
                "reports/s (log) against target reports/s (log); grey: = target",
                rates.decades());
        // where sent = target, behind the series
        g.setColor(Color.GRAY);
        g.drawLine(
                left.px(targets.lo()),
                left.py(targets.lo()),
                left.px(targets.hi()),
                left.py(Math.min(targets.hi(), rates.hi())));
        series(g, left, throughput);
        PlotArea right = plot(PANEL_WIDTH, targets, seconds);
        axes(g, right, "seconds against target reports/s (log)", seconds.steps(5));
        series(g, right, latency);
        image.writePng(file);
    }

    private static PlotArea plot(int left, Scale x, Scale y) {
        return new PlotArea(
                left + MARGIN,
                40 + PANEL_HEIGHT - 50,
                PANEL_WIDTH - MARGIN - 20,
                PANEL_HEIGHT - 80,
                x,
                y);
    }

    private record Series(
            String name,
            Color color,
            BasicStroke stroke,
            List<Run> runs,
            ToDoubleFunction<Run> value,
            double unit) {}

    private static double max(List<Series> series) {
        double max = 0;
        for (Series s : series) {
            for (Run r : s.runs()) {
                double v = s.value().applyAsDouble(r) / s.unit();
                if (!Double.isNaN(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        return max;
    }

    /** The panel's title, ticks (x at each doubling of the target) and axes. */
    private static void axes(Graphics2D g, PlotArea plot, String title, List<Double> yTicks) {
        plot.title(g, title);
        plot.yTicks(g, yTicks, v -> String.format(Locale.ROOT, "%.0f", v));
        List<Double> xTicks = new ArrayList<>();
        for (double x = plot.x().lo(); x <= plot.x().hi() * 1.001; x *= 2) {
            xTicks.add(x);
        }
        plot.xTicks(g, xTicks, v -> String.format(Locale.ROOT, "%.0f", v));
        plot.axes(g);
    }

    /** The series, one line each, and their legend below the panel. */
    private static void series(Graphics2D g, PlotArea plot, List<Series> series) {
        List<Legend.Entry> legend = new ArrayList<>();
        for (Series s : series) {
            double[] xs = new double[s.runs().size()];
            double[] ys = new double[xs.length];
            for (int i = 0; i < xs.length; i++) {
                Run r = s.runs().get(i);
                xs[i] = r.target();
                ys[i] = s.value().applyAsDouble(r) / s.unit();
            }
            plot.line(g, xs, ys, s.color(), s.stroke());
            legend.add(Legend.Entry.line(s.name(), s.color(), s.stroke()));
        }
        Legend.draw(g, legend, plot.left() - MARGIN + 10, plot.bottom() + 30, 2, 270);
    }
}
