package dev.fieldprof.benchmarks.plan;

import dev.fieldprof.analysis.plan.Strategy;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import javax.imageio.ImageIO;

/**
 * Draws the probe-distribution study like Figures 2 and 3 of probe distribution
 * (docs/references.md): per program, the share of the a-posteriori optimum identified and the
 * falsely reported over the correctly identified chains (log scale), one bar per strategy in each
 * h-bound's group, the bar at the mean and a whisker from the smallest to the largest repetition.
 * Plain Java2D, headless, as the accuracy chart of the jobs module.
 */
public final class PlanStudyChart {
    private static final int PANEL_WIDTH = 640;
    private static final int PANEL_HEIGHT = 260;
    private static final int MARGIN = 55;
    private static final int HEADER = 78;

    private PlanStudyChart() {}

    /** Writes the chart of {@code rows} to {@code file}. */
    public static void write(
            List<ProbeDistributionStudy.Row> rows, int sites, int variants, Path file)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        Map<String, List<ProbeDistributionStudy.Row>> byProgram = new LinkedHashMap<>();
        for (ProbeDistributionStudy.Row row : rows) {
            byProgram.computeIfAbsent(row.program(), k -> new ArrayList<>()).add(row);
        }
        int width = 2 * PANEL_WIDTH;
        int height = HEADER + byProgram.size() * PANEL_HEIGHT;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        g.drawString(
                String.format(
                        Locale.ROOT,
                        "Probe distribution on real programs: %d sites, n = %d variants;"
                                + " bar = mean, whisker = min..max over repetitions",
                        sites,
                        variants),
                10,
                18);
        legend(g, 10, 36);
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
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
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

    private static void legend(Graphics2D g, int x, int y) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        for (Strategy strategy : Strategy.values()) {
            int cx = x + (strategy.ordinal() % 4) * 230;
            int cy = y + (strategy.ordinal() / 4) * 14;
            g.setColor(color(strategy));
            g.fillRect(cx, cy - 9, 10, 10);
            g.setColor(Color.BLACK);
            g.drawString(strategy.cliName(), cx + 14, cy);
        }
    }

    private static void panel(
            Graphics2D g,
            int left,
            int top,
            String title,
            List<ProbeDistributionStudy.Row> rows,
            Function<ProbeDistributionStudy.Row, double[]> values,
            boolean log) {
        int x0 = left + MARGIN;
        int y0 = top + PANEL_HEIGHT - 40;
        int plotWidth = PANEL_WIDTH - MARGIN - 15;
        int plotHeight = PANEL_HEIGHT - 70;
        double max = 0;
        for (ProbeDistributionStudy.Row row : rows) {
            for (double v : values.apply(row)) {
                max = Math.max(max, v);
            }
        }
        double lo = log ? 0.1 : 0;
        double hi =
                log
                        ? Math.pow(10, Math.max(0, Math.ceil(Math.log10(Math.max(max, 0.1)))))
                        : Math.max(1.0, Math.ceil(max * 4) / 4);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        g.drawString(title, x0, top + 16);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        g.setStroke(new BasicStroke(1));
        int ticks = log ? (int) Math.round(Math.log10(hi / lo)) : (int) Math.round(hi * 4);
        for (int i = 0; i <= ticks; i++) {
            double value = log ? lo * Math.pow(10, i) : i / 4.0;
            int y = y0 - (int) Math.round(scale(value, lo, hi, log) * plotHeight);
            g.setColor(new Color(0xdd, 0xdd, 0xdd));
            g.drawLine(x0 + 1, y, x0 + plotWidth, y);
            g.setColor(Color.BLACK);
            g.drawString(
                    log
                            ? String.format(Locale.ROOT, "%s", trim(value))
                            : String.format(Locale.ROOT, "%.0f%%", 100 * value),
                    left + 8,
                    y + 4);
        }
        g.drawLine(x0, y0, x0 + plotWidth, y0);
        g.drawLine(x0, y0, x0, y0 - plotHeight);
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
            int bx = x0 + group * groupWidth + 8 + row.strategy().ordinal() * barWidth;
            double[] v = values.apply(row);
            double mean = ProbeDistributionStudy.Row.mean(v);
            double min = Double.POSITIVE_INFINITY;
            double maxV = 0;
            for (double x : v) {
                min = Math.min(min, x);
                maxV = Math.max(maxV, x);
            }
            int h = (int) Math.round(scale(mean, lo, hi, log) * plotHeight);
            g.setColor(color(row.strategy()));
            g.fillRect(bx, y0 - h, barWidth - 1, h);
            g.setColor(Color.DARK_GRAY);
            int yMin = y0 - (int) Math.round(scale(min, lo, hi, log) * plotHeight);
            int yMax = y0 - (int) Math.round(scale(maxV, lo, hi, log) * plotHeight);
            int cx = bx + (barWidth - 1) / 2;
            g.drawLine(cx, yMin, cx, yMax);
        }
        g.setColor(Color.BLACK);
        for (int i = 0; i < bounds.size(); i++) {
            g.drawString(
                    "h = " + bounds.get(i) + "%",
                    x0 + i * groupWidth + groupWidth / 2 - 20,
                    y0 + 14);
        }
    }

    private static String trim(double value) {
        return value >= 1
                ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.2f", value);
    }

    private static double scale(double value, double lo, double hi, boolean log) {
        if (log) {
            if (value <= lo) {
                return 0;
            }
            return Math.min(1, Math.log10(value / lo) / Math.log10(hi / lo));
        }
        return Math.max(0, Math.min(1, value / hi));
    }
}
