package dev.fieldprof.benchmarks.load;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
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
import javax.imageio.ImageIO;

/**
 * The load curve of benchmarks/load-curve.sh: reads its results (one line per run: the runtime, a
 * tab, and the JSON that {@code fieldprof load --json} wrote), prints the Markdown table and draws
 * the PNG: throughput (sent and counted reports/s) and latency (report → committed estimate p50 and
 * p99, window end → committed) against the target rate, one colour per runtime. Plain Java2D,
 * headless, no dependency: it runs with Java's source launcher.
 *
 * <pre>
 * java benchmarks/src/main/java/dev/fieldprof/benchmarks/load/LoadCurveChart.java RESULTS PNG
 * </pre>
 */
public final class LoadCurveChart {
    private static final int PANEL_WIDTH = 560;
    private static final int PANEL_HEIGHT = 380;
    private static final int MARGIN = 62;

    /** Okabe–Ito colours, as the other charts of the repository. */
    private static final Color[] COLORS = {
        new Color(0x00, 0x72, 0xB2), new Color(0xD5, 0x5E, 0x00), new Color(0x00, 0x9E, 0x73)
    };

    private static final BasicStroke SOLID = new BasicStroke(2f);
    private static final BasicStroke DASHED =
            new BasicStroke(
                    2f,
                    BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_MITER,
                    10f,
                    new float[] {7f, 4f},
                    0f);
    private static final BasicStroke DOTTED =
            new BasicStroke(
                    2f,
                    BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_MITER,
                    10f,
                    new float[] {2f, 4f},
                    0f);

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
        System.setProperty("java.awt.headless", "true");
        Map<String, List<Run>> byRuntime = new LinkedHashMap<>();
        for (Run run : runs) {
            byRuntime.computeIfAbsent(run.runtime(), k -> new ArrayList<>()).add(run);
        }
        int width = 2 * PANEL_WIDTH;
        int height = PANEL_HEIGHT + 80;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.drawString(
                "fieldprof load: frequency job throughput and latency against the target rate",
                10,
                20);
        double maxTarget = runs.stream().mapToDouble(Run::target).max().orElse(1);
        double minTarget = runs.stream().mapToDouble(Run::target).min().orElse(1);
        List<Series> throughput = new ArrayList<>();
        List<Series> latency = new ArrayList<>();
        int c = 0;
        for (Map.Entry<String, List<Run>> e : byRuntime.entrySet()) {
            Color color = COLORS[c++ % COLORS.length];
            List<Run> r = e.getValue();
            throughput.add(new Series(e.getKey() + ": sent", color, SOLID, r, Run::sent, 1));
            throughput.add(
                    new Series(
                            e.getKey() + ": counted by the job",
                            color,
                            DASHED,
                            r,
                            Run::counted,
                            1));
            latency.add(new Series(e.getKey() + ": latency p50", color, SOLID, r, Run::p50, 1000));
            latency.add(new Series(e.getKey() + ": latency p99", color, DASHED, r, Run::p99, 1000));
            latency.add(
                    new Series(
                            e.getKey() + ": window lag p95", color, DOTTED, r, Run::lagP95, 1000));
        }
        double maxRate = Math.max(maxTarget, max(throughput));
        panel(
                g,
                0,
                "reports/s (log) against target reports/s (log); grey: = target",
                throughput,
                minTarget,
                maxTarget,
                minTarget / 2,
                maxRate,
                true);
        panel(
                g,
                PANEL_WIDTH,
                "seconds against target reports/s (log)",
                latency,
                minTarget,
                maxTarget,
                0,
                max(latency),
                false);
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
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

    private static void panel(
            Graphics2D g,
            int left,
            String title,
            List<Series> series,
            double xLo,
            double xHi,
            double yLo,
            double yHi,
            boolean logY) {
        int x0 = left + MARGIN;
        int y0 = 40 + PANEL_HEIGHT - 50;
        int plotWidth = PANEL_WIDTH - MARGIN - 20;
        int plotHeight = PANEL_HEIGHT - 80;
        if (logY) {
            yLo = Math.pow(10, Math.floor(Math.log10(Math.max(1, yLo))));
            yHi = Math.pow(10, Math.ceil(Math.log10(Math.max(yHi, yLo * 10))));
        } else {
            yHi = Math.max(1, Math.ceil(yHi / 5) * 5);
        }
        double xl = xLo;
        double xh = Math.max(xHi, xLo * 2);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        g.setColor(Color.BLACK);
        g.drawString(title, x0, 52);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        g.setStroke(new BasicStroke(1));
        List<Double> yTicks = new ArrayList<>();
        if (logY) {
            for (double v = yLo; v <= yHi * 1.001; v *= 10) {
                yTicks.add(v);
            }
        } else {
            for (double v = 0; v <= yHi + 1e-9; v += yHi / 5) {
                yTicks.add(v);
            }
        }
        for (double v : yTicks) {
            int y = y0 - (int) Math.round(scale(v, yLo, yHi, logY) * plotHeight);
            g.setColor(new Color(0xdd, 0xdd, 0xdd));
            g.drawLine(x0 + 1, y, x0 + plotWidth, y);
            g.setColor(Color.BLACK);
            g.drawString(String.format(Locale.ROOT, "%.0f", v), left + 8, y + 4);
        }
        for (double x = xl; x <= xh * 1.001; x *= 2) {
            int px = x0 + (int) Math.round(scale(x, xl, xh, true) * plotWidth);
            g.setColor(new Color(0xdd, 0xdd, 0xdd));
            g.drawLine(px, y0 - 1, px, y0 - plotHeight);
            g.setColor(Color.BLACK);
            g.drawString(String.format(Locale.ROOT, "%.0f", x), px - 12, y0 + 14);
        }
        g.drawLine(x0, y0, x0 + plotWidth, y0);
        g.drawLine(x0, y0, x0, y0 - plotHeight);
        if (logY) { // reports/s against the target: where sent = target
            g.setColor(Color.GRAY);
            int ax = x0;
            int ay = y0 - (int) Math.round(scale(xl, yLo, yHi, true) * plotHeight);
            int bx = x0 + (int) Math.round(scale(xh, xl, xh, true) * plotWidth);
            int by = y0 - (int) Math.round(scale(Math.min(xh, yHi), yLo, yHi, true) * plotHeight);
            g.drawLine(ax, ay, bx, by);
        }
        int legendY = y0 + 30;
        int i = 0;
        for (Series s : series) {
            g.setColor(s.color());
            g.setStroke(s.stroke());
            int lastX = -1;
            int lastY = -1;
            for (Run r : s.runs()) {
                double v = s.value().applyAsDouble(r) / s.unit();
                if (Double.isNaN(v)) {
                    lastX = -1;
                    continue;
                }
                int px = x0 + (int) Math.round(scale(r.target(), xl, xh, true) * plotWidth);
                int py =
                        y0
                                - (int)
                                        Math.round(
                                                scale(Math.max(v, logY ? yLo : 0), yLo, yHi, logY)
                                                        * plotHeight);
                g.fillOval(px - 3, py - 3, 6, 6);
                if (lastX >= 0) {
                    g.drawLine(lastX, lastY, px, py);
                }
                lastX = px;
                lastY = py;
            }
            int lx = left + 10 + (i % 2) * 270;
            int ly = legendY + (i / 2) * 14;
            g.drawLine(lx, ly - 4, lx + 24, ly - 4);
            g.setColor(Color.BLACK);
            g.setStroke(new BasicStroke(1));
            g.drawString(s.name(), lx + 30, ly);
            i++;
        }
    }

    private static double scale(double value, double lo, double hi, boolean log) {
        if (log) {
            return (Math.log(value) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
        }
        return (value - lo) / (hi - lo);
    }
}
