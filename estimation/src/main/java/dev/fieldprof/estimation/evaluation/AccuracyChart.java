package dev.fieldprof.estimation.evaluation;

import dev.fieldprof.estimation.chart.ChartImage;
import dev.fieldprof.estimation.chart.PlotArea;
import dev.fieldprof.estimation.chart.Scale;
import java.awt.Color;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Draws the accuracy study as a PNG like Figures 1 and 3 of frequency profiling
 * (docs/references.md): per (ε, t), ĝ next to g* for RE over all methods, RE over hot methods (both
 * on a log scale) and HMC. Plain Java2D, headless.
 */
public final class AccuracyChart {
    private static final int PANEL_WIDTH = 420;
    private static final int PANEL_HEIGHT = 300;
    private static final int MARGIN = 50;
    private static final Color RAW = new Color(0x9e, 0xbc, 0xda);
    private static final Color QP = new Color(0x2c, 0x5f, 0x8a);

    private AccuracyChart() {}

    /** Writes the chart of {@code result} to {@code file}. */
    public static void write(AccuracyStudy.Result result, Path file) throws IOException {
        ChartImage image = new ChartImage(3 * PANEL_WIDTH, PANEL_HEIGHT + 60);
        image.title(
                String.format(
                        Locale.ROOT,
                        "%s: |V| = %d, %d devices, k = %d, %d repetitions; light = g^ (no QP),"
                                + " dark = g* (QP)",
                        result.workload(),
                        result.methods(),
                        result.devices(),
                        result.k(),
                        result.repetitions()));
        Graphics2D g = image.graphics();
        List<AccuracyStudy.Row> rows = result.rows();
        panel(
                g,
                0,
                "RE, all methods (log)",
                rows,
                AccuracyStudy.Row::relativeErrorAllRaw,
                AccuracyStudy.Row::relativeErrorAllQp,
                true);
        panel(
                g,
                PANEL_WIDTH,
                "RE, hot methods (log)",
                rows,
                AccuracyStudy.Row::relativeErrorHotRaw,
                AccuracyStudy.Row::relativeErrorHotQp,
                true);
        panel(
                g,
                2 * PANEL_WIDTH,
                "HMC",
                rows,
                AccuracyStudy.Row::hotCoverageRaw,
                AccuracyStudy.Row::hotCoverageQp,
                false);
        image.writePng(file);
    }

    private static void panel(
            Graphics2D g,
            int left,
            String title,
            List<AccuracyStudy.Row> rows,
            ToDoubleFunction<AccuracyStudy.Row> raw,
            ToDoubleFunction<AccuracyStudy.Row> qp,
            boolean log) {
        double max = 0;
        double min = Double.POSITIVE_INFINITY;
        for (AccuracyStudy.Row row : rows) {
            for (double v : new double[] {raw.applyAsDouble(row), qp.applyAsDouble(row)}) {
                max = Math.max(max, v);
                if (v > 0) {
                    min = Math.min(min, v);
                }
            }
        }
        // RE: whole decades down to the smallest error (1 at least); HMC: a share, 0 to 1.
        Scale scale = log ? Scale.logDecades(Math.min(min, 1), max) : Scale.linear(0, 1);
        int plotWidth = PANEL_WIDTH - MARGIN - 15;
        PlotArea plot =
                PlotArea.bars(
                        left + MARGIN,
                        40 + PANEL_HEIGHT - MARGIN,
                        plotWidth,
                        PANEL_HEIGHT - MARGIN - 25,
                        scale);
        plot.title(g, title);
        plot.yTicks(g, log ? scale.decades() : scale.steps(4), v -> label(v, log));
        plot.axes(g);
        int groupWidth = plotWidth / Math.max(1, rows.size());
        int barWidth = Math.max(2, (groupWidth - 6) / 2);
        for (int i = 0; i < rows.size(); i++) {
            AccuracyStudy.Row row = rows.get(i);
            int gx = plot.left() + i * groupWidth + 3;
            plot.bar(g, gx, barWidth, raw.applyAsDouble(row), RAW);
            plot.bar(g, gx + barWidth, barWidth, qp.applyAsDouble(row), QP);
            g.setColor(Color.BLACK);
            g.drawString(row.tLabel(), gx + 2, plot.bottom() + 12);
            g.drawString(row.epsilonLabel(), gx, plot.bottom() + 24);
        }
        g.drawString("t / eps", plot.left() + plotWidth - 40, plot.bottom() + 38);
    }

    private static String label(double value, boolean log) {
        if (!log) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return value >= 1
                ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.0e", value);
    }
}
