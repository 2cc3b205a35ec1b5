package dev.fieldprof.benchmarks.plan;

import dev.fieldprof.analysis.plan.Strategy;
import dev.fieldprof.estimation.chart.ChartImage;
import dev.fieldprof.estimation.chart.Legend;
import dev.fieldprof.estimation.chart.PlotArea;
import dev.fieldprof.estimation.chart.Scale;
import java.awt.Color;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Draws the probe-distribution study like Figures 2 and 3 of probe distribution
 * (docs/references.md): per program, the share of the a-posteriori optimum identified and the
 * falsely reported over the correctly identified chains (log scale), one bar per strategy in each
 * h-bound's group, the bar at the mean and a whisker from the smallest to the largest repetition.
 * Plain Java2D, headless, with the estimation module's chart package.
 */
public final class PlanStudyChart {
    private static final int PANEL_WIDTH = 640;
    private static final int PANEL_HEIGHT = 260;
    private static final int MARGIN = 55;
    private static final int HEADER = 84;

    private PlanStudyChart() {}

    /** Writes the chart of {@code rows} to {@code file}. */
    public static void write(
            List<ProbeDistributionStudy.Row> rows, int sites, int variants, Path file)
            throws IOException {
        Map<String, List<ProbeDistributionStudy.Row>> byProgram = new LinkedHashMap<>();
        for (ProbeDistributionStudy.Row row : rows) {
            byProgram.computeIfAbsent(row.program(), k -> new ArrayList<>()).add(row);
        }
        ChartImage image =
                new ChartImage(2 * PANEL_WIDTH, HEADER + byProgram.size() * PANEL_HEIGHT);
        image.title(
                String.format(
                        Locale.ROOT,
                        "Probe distribution on real programs: %d sites, n = %d variants;"
                                + " bar = mean, whisker = min..max over repetitions",
                        sites,
                        variants));
        Graphics2D g = image.graphics();
        List<Legend.Entry> legend = new ArrayList<>();
        for (Strategy strategy : Strategy.values()) {
            legend.add(Legend.Entry.box(strategy.cliName(), color(strategy)));
        }
        Legend.draw(g, legend, 10, 38, 4, 230);
        int top = HEADER;
        for (Map.Entry<String, List<ProbeDistributionStudy.Row>> program : byProgram.entrySet()) {
            panel(
                    g,
                    0,
                    top,
                    program.getKey() + ": chains identified, share of optimum (greedy)",
                    program.getValue(),
                    ProbeDistributionStudy.Row::shareOfOptimum,
                    false);
            panel(
                    g,
                    PANEL_WIDTH,
                    top,
                    program.getKey() + ": falsely reported / identified chains (log)",
                    program.getValue(),
                    ProbeDistributionStudy.Row::falseRatio,
                    true);
            top += PANEL_HEIGHT;
        }
        image.writePng(file);
    }

    /** Probes red, events blue, clusters green; random light to balanced-packed dark. */
    static Color color(Strategy strategy) {
        int shade = strategy.ordinal() % 4;
        float brightness = 0.95f - 0.18f * shade;
        float hue =
                switch (strategy.target()) {
                    case PROBES -> 0.0f;
                    case EVENTS -> 0.6f;
                    case CLUSTERS -> 0.33f;
                };
        return Color.getHSBColor(hue, 0.35f + 0.15f * shade, brightness);
    }

    private static void panel(
            Graphics2D g,
            int left,
            int top,
            String title,
            List<ProbeDistributionStudy.Row> rows,
            Function<ProbeDistributionStudy.Row, double[]> values,
            boolean log) {
        double max = 0;
        for (ProbeDistributionStudy.Row row : rows) {
            for (double v : values.apply(row)) {
                max = Math.max(max, v);
            }
        }
        // false ratios: from 0.1 up to a whole decade (1 at least); shares: 0 to 100% at least
        Scale scale =
                log
                        ? Scale.log(
                                0.1,
                                Math.pow(
                                        10, Math.max(0, Math.ceil(Math.log10(Math.max(max, 0.1))))))
                        : Scale.linear(0, Math.max(1.0, Math.ceil(max * 4) / 4));
        int plotWidth = PANEL_WIDTH - MARGIN - 15;
        PlotArea plot =
                PlotArea.bars(
                        left + MARGIN,
                        top + PANEL_HEIGHT - 40,
                        plotWidth,
                        PANEL_HEIGHT - 70,
                        scale);
        plot.title(g, title);
        plot.yTicks(
                g,
                log ? scale.decades() : scale.steps((int) Math.round(scale.hi() * 4)),
                v -> log ? trim(v) : String.format(Locale.ROOT, "%.0f%%", 100 * v));
        plot.axes(g);
        List<Integer> bounds = new ArrayList<>();
        for (ProbeDistributionStudy.Row row : rows) {
            if (!bounds.contains(row.boundPercent())) {
                bounds.add(row.boundPercent());
            }
        }
        int groupWidth = plotWidth / Math.max(1, bounds.size());
        int barWidth = Math.max(2, (groupWidth - 16) / Strategy.values().length);
        for (ProbeDistributionStudy.Row row : rows) {
            int group = bounds.indexOf(row.boundPercent());
            int bx = plot.left() + group * groupWidth + 8 + row.strategy().ordinal() * barWidth;
            double[] v = values.apply(row);
            double min = Double.POSITIVE_INFINITY;
            double maxV = 0;
            for (double x : v) {
                min = Math.min(min, x);
                maxV = Math.max(maxV, x);
            }
            plot.bar(
                    g, bx, barWidth - 1, ProbeDistributionStudy.Row.mean(v), color(row.strategy()));
            g.setColor(Color.DARK_GRAY);
            int cx = bx + (barWidth - 1) / 2;
            g.drawLine(cx, plot.py(min), cx, plot.py(maxV));
        }
        g.setColor(Color.BLACK);
        for (int i = 0; i < bounds.size(); i++) {
            g.drawString(
                    "h = " + bounds.get(i) + "%",
                    plot.left() + i * groupWidth + groupWidth / 2 - 20,
                    plot.bottom() + 14);
        }
    }

    private static String trim(double value) {
        return value >= 1
                ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.2f", value);
    }
}
