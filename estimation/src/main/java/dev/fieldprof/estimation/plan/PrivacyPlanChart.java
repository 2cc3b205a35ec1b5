package dev.fieldprof.estimation.plan;

import dev.fieldprof.schemas.PrivacyMode;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * The privacy plan as a PNG: accuracy against ε for the user's program, one line per mode (and per
 * t and reports per day in ε-t mode), RE(g*) on the left and the 95% half-width against the
 * user-level ε a device spends per day on the right, both on log scales. Plain Java2D, headless.
 */
public final class PrivacyPlanChart {
    private static final int PANEL_WIDTH = 560;
    private static final int PANEL_HEIGHT = 380;
    private static final int MARGIN = 60;

    /** Okabe–Ito colours: readable for the common colour-vision deficiencies. */
    private static final Color[] COLORS = {
        new Color(0x00, 0x72, 0xB2),
        new Color(0xD5, 0x5E, 0x00),
        new Color(0x00, 0x9E, 0x73),
        new Color(0xCC, 0x79, 0xA7),
        new Color(0xE6, 0x9F, 0x00),
        new Color(0x56, 0xB4, 0xE9),
        new Color(0x00, 0x00, 0x00),
        new Color(0x99, 0x99, 0x99)
    };

    /** User-level series are dashed, so the two modes differ in more than colour. */
    private static final BasicStroke DASHED =
            new BasicStroke(
                    2f,
                    BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_MITER,
                    10f,
                    new float[] {7f, 4f},
                    0f);

    private PrivacyPlanChart() {}

    /** Writes the chart of {@code predictions} (titled {@code title}) to {@code file}. */
    public static void write(String title, List<PrivacyPlanner.Prediction> predictions, Path file)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        Map<String, List<PrivacyPlanner.Prediction>> series = new TreeMap<>();
        for (PrivacyPlanner.Prediction p : predictions) {
            series.computeIfAbsent(seriesName(p), x -> new ArrayList<>()).add(p);
        }
        for (List<PrivacyPlanner.Prediction> s : series.values()) {
            s.sort(java.util.Comparator.comparingDouble(p -> p.candidate().privacy().epsilon()));
        }
        int width = 2 * PANEL_WIDTH;
        int height = PANEL_HEIGHT + 70 + 18 * series.size();
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.drawString(title, 10, 20);
        panel(
                g,
                0,
                series,
                p -> p.candidate().privacy().epsilon(),
                PrivacyPlanner.Prediction::relativeErrorProjected,
                "privacy loss ε of one report",
                "expected RE of g* (all methods)");
        panel(
                g,
                PANEL_WIDTH,
                series,
                p -> p.candidate().userLevelEpsilonPerDay(),
                PrivacyPlanner.Prediction::halfWidth95,
                "user-level ε a device spends per day",
                "95% half-width of a method's share");
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        int i = 0;
        for (String name : series.keySet()) {
            int y = PANEL_HEIGHT + 50 + 18 * i;
            g.setColor(COLORS[i % COLORS.length]);
            g.setStroke(dashed(name) ? DASHED : new BasicStroke(2f));
            g.drawLine(MARGIN, y - 7, MARGIN + 24, y - 7);
            g.setColor(Color.BLACK);
            g.drawString(name, MARGIN + 32, y - 3);
            i++;
        }
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static boolean dashed(String seriesName) {
        return seriesName.startsWith("user-level");
    }

    private static String seriesName(PrivacyPlanner.Prediction p) {
        var privacy = p.candidate().privacy();
        String perDay =
                String.format(
                        Locale.ROOT, "%s report(s)/day", number(p.candidate().reportsPerDay()));
        return privacy.mode() == PrivacyMode.USER_LEVEL
                ? "user-level, " + perDay
                : String.format(
                        Locale.ROOT,
                        "epsilon-t, t = %d, k = %d, %s",
                        privacy.t(),
                        privacy.k(),
                        perDay);
    }

    private static void panel(
            Graphics2D g,
            int left,
            Map<String, List<PrivacyPlanner.Prediction>> series,
            ToDoubleFunction<PrivacyPlanner.Prediction> x,
            ToDoubleFunction<PrivacyPlanner.Prediction> y,
            String xLabel,
            String yLabel) {
        double[] xs = range(series, x);
        double[] ys = range(series, y);
        int x0 = left + MARGIN;
        int y0 = 30 + PANEL_HEIGHT - MARGIN;
        int w = PANEL_WIDTH - 2 * MARGIN;
        int h = PANEL_HEIGHT - 2 * MARGIN;
        g.setColor(new Color(0xE0, 0xE0, 0xE0));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        for (double decade = Math.floor(xs[0]); decade <= xs[1]; decade++) {
            int px = x0 + (int) Math.round((decade - xs[0]) / (xs[1] - xs[0]) * w);
            if (px >= x0) {
                g.setColor(new Color(0xE0, 0xE0, 0xE0));
                g.drawLine(px, y0, px, y0 - h);
                g.setColor(Color.DARK_GRAY);
                g.drawString(number(Math.pow(10, decade)), px - 10, y0 + 15);
            }
        }
        for (double decade = Math.floor(ys[0]); decade <= ys[1]; decade++) {
            int py = y0 - (int) Math.round((decade - ys[0]) / (ys[1] - ys[0]) * h);
            if (py <= y0) {
                g.setColor(new Color(0xE0, 0xE0, 0xE0));
                g.drawLine(x0, py, x0 + w, py);
                g.setColor(Color.DARK_GRAY);
                g.drawString(number(Math.pow(10, decade)), x0 - 45, py + 4);
            }
        }
        g.setColor(Color.BLACK);
        g.drawRect(x0, y0 - h, w, h);
        g.drawString(xLabel, x0 + w / 2 - 80, y0 + 32);
        g.drawString(yLabel, x0, y0 - h - 8);
        int i = 0;
        for (Map.Entry<String, List<PrivacyPlanner.Prediction>> entry : series.entrySet()) {
            List<PrivacyPlanner.Prediction> s = entry.getValue();
            g.setStroke(dashed(entry.getKey()) ? DASHED : new BasicStroke(2f));
            g.setColor(COLORS[i++ % COLORS.length]);
            int px = -1;
            int py = -1;
            for (PrivacyPlanner.Prediction p : s) {
                int nx =
                        x0
                                + (int)
                                        Math.round(
                                                (Math.log10(x.applyAsDouble(p)) - xs[0])
                                                        / (xs[1] - xs[0])
                                                        * w);
                int ny =
                        y0
                                - (int)
                                        Math.round(
                                                (Math.log10(y.applyAsDouble(p)) - ys[0])
                                                        / (ys[1] - ys[0])
                                                        * h);
                g.fillOval(nx - 3, ny - 3, 7, 7);
                if (px >= 0) {
                    g.drawLine(px, py, nx, ny);
                }
                px = nx;
                py = ny;
            }
        }
        g.setStroke(new BasicStroke(1f));
    }

    /** log10 of the smallest and largest positive value, padded to a visible range. */
    private static double[] range(
            Map<String, List<PrivacyPlanner.Prediction>> series,
            ToDoubleFunction<PrivacyPlanner.Prediction> f) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (List<PrivacyPlanner.Prediction> s : series.values()) {
            for (PrivacyPlanner.Prediction p : s) {
                double v = f.applyAsDouble(p);
                if (v > 0 && Double.isFinite(v)) {
                    lo = Math.min(lo, Math.log10(v));
                    hi = Math.max(hi, Math.log10(v));
                }
            }
        }
        if (!Double.isFinite(lo)) {
            return new double[] {-1, 1};
        }
        return new double[] {lo - 0.1, Math.max(hi + 0.1, lo + 0.5)};
    }

    private static String number(double v) {
        if (v >= 1000 || v < 0.001) {
            return String.format(Locale.ROOT, "%.0e", v);
        }
        return String.format(Locale.ROOT, "%.4g", v).replaceAll("\\.?0+$", "");
    }
}
