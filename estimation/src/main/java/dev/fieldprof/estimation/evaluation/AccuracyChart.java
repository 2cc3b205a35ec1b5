package dev.fieldprof.estimation.evaluation;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

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
        System.setProperty("java.awt.headless", "true");
        int width = 3 * PANEL_WIDTH;
        int height = PANEL_HEIGHT + 60;
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
                        "%s: |V| = %d, %d devices, k = %d, %d repetitions; light = g^ (no QP),"
                                + " dark = g* (QP)",
                        result.workload(),
                        result.methods(),
                        result.devices(),
                        result.k(),
                        result.repetitions()),
                10,
                18);
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
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static void panel(
            Graphics2D g,
            int left,
            String title,
            List<AccuracyStudy.Row> rows,
            ToDoubleFunction<AccuracyStudy.Row> raw,
            ToDoubleFunction<AccuracyStudy.Row> qp,
            boolean log) {
        int top = 40;
        int x0 = left + MARGIN;
        int y0 = top + PANEL_HEIGHT - MARGIN;
        int plotWidth = PANEL_WIDTH - MARGIN - 15;
        int plotHeight = PANEL_HEIGHT - MARGIN - 25;
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
        double lo = log ? Math.pow(10, Math.floor(Math.log10(Math.min(min, 1)))) : 0;
        double hi = log ? Math.pow(10, Math.ceil(Math.log10(Math.max(max, lo * 10)))) : 1.0;
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        g.drawString(title, x0, top + 10);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        g.setStroke(new BasicStroke(1));
        g.drawLine(x0, y0, x0 + plotWidth, y0);
        g.drawLine(x0, y0, x0, y0 - plotHeight);
        int ticks = log ? (int) Math.round(Math.log10(hi / lo)) : 4;
        for (int i = 0; i <= ticks; i++) {
            double value = log ? lo * Math.pow(10, i) : hi * i / ticks;
            int y = y0 - (int) Math.round(scale(value, lo, hi, log) * plotHeight);
            g.setColor(new Color(0xdd, 0xdd, 0xdd));
            g.drawLine(x0 + 1, y, x0 + plotWidth, y);
            g.setColor(Color.BLACK);
            g.drawString(label(value, log), left + 5, y + 4);
        }
        int groupWidth = plotWidth / Math.max(1, rows.size());
        int barWidth = Math.max(2, (groupWidth - 6) / 2);
        for (int i = 0; i < rows.size(); i++) {
            AccuracyStudy.Row row = rows.get(i);
            int gx = x0 + i * groupWidth + 3;
            bar(g, gx, y0, barWidth, plotHeight, scale(raw.applyAsDouble(row), lo, hi, log), RAW);
            bar(
                    g,
                    gx + barWidth,
                    y0,
                    barWidth,
                    plotHeight,
                    scale(qp.applyAsDouble(row), lo, hi, log),
                    QP);
            g.setColor(Color.BLACK);
            g.drawString(row.tLabel(), gx + 2, y0 + 12);
            g.drawString(row.epsilonLabel(), gx, y0 + 24);
        }
        g.drawString("t / eps", x0 + plotWidth - 40, y0 + 38);
    }

    private static void bar(
            Graphics2D g, int x, int y0, int width, int plotHeight, double fraction, Color color) {
        int h = (int) Math.round(Math.max(0, Math.min(1, fraction)) * plotHeight);
        g.setColor(color);
        g.fillRect(x, y0 - h, width, h);
    }

    private static double scale(double value, double lo, double hi, boolean log) {
        if (log) {
            return value <= lo ? 0 : Math.log(value / lo) / Math.log(hi / lo);
        }
        return value / hi;
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
