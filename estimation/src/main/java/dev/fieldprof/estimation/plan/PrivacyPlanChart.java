package dev.fieldprof.estimation.plan;

import dev.fieldprof.estimation.chart.ChartImage;
import dev.fieldprof.estimation.chart.Legend;
import dev.fieldprof.estimation.chart.Palette;
import dev.fieldprof.estimation.chart.PlotArea;
import dev.fieldprof.estimation.chart.Scale;
import dev.fieldprof.schemas.PrivacyMode;
import java.awt.BasicStroke;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The privacy plan as a PNG: accuracy against ε for the user's program, one line per mode (and per
 * t and reports per day in ε-t mode), RE(g*) on the left and the 95% half-width against the
 * user-level ε a device spends per day on the right, both on log scales. Plain Java2D, headless.
 */
public final class PrivacyPlanChart {
    private static final int PANEL_WIDTH = 560;
    private static final int PANEL_HEIGHT = 380;
    private static final int MARGIN = 60;

    private PrivacyPlanChart() {}

    /** Writes the chart of {@code predictions} (titled {@code title}) to {@code file}. */
    public static void write(String title, List<PrivacyPlanner.Prediction> predictions, Path file)
            throws IOException {
        Map<String, List<PrivacyPlanner.Prediction>> series = new TreeMap<>();
        for (PrivacyPlanner.Prediction p : predictions) {
            series.computeIfAbsent(seriesName(p), x -> new ArrayList<>()).add(p);
        }
        for (List<PrivacyPlanner.Prediction> s : series.values()) {
            s.sort(Comparator.comparingDouble(p -> p.candidate().privacy().epsilon()));
        }
        ChartImage image =
                new ChartImage(
                        2 * PANEL_WIDTH, PANEL_HEIGHT + 70 + Legend.ROW_HEIGHT * series.size());
        image.title(title);
        Graphics2D g = image.graphics();
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
        List<Legend.Entry> legend = new ArrayList<>();
        int i = 0;
        for (String name : series.keySet()) {
            legend.add(Legend.Entry.line(name, Palette.series(i++), stroke(name)));
        }
        Legend.draw(g, legend, MARGIN, PANEL_HEIGHT + 50, 1, 0);
        image.writePng(file);
    }

    /** User-level series are dashed, so the two modes differ in more than colour. */
    private static BasicStroke stroke(String seriesName) {
        return seriesName.startsWith("user-level") ? Palette.DASHED : Palette.SOLID;
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
        PlotArea plot =
                new PlotArea(
                        left + MARGIN,
                        30 + PANEL_HEIGHT - MARGIN,
                        PANEL_WIDTH - 2 * MARGIN,
                        PANEL_HEIGHT - 2 * MARGIN,
                        range(series, x),
                        range(series, y));
        plot.xTicks(g, plot.x().decades(), PrivacyPlanChart::number);
        plot.yTicks(g, plot.y().decades(), PrivacyPlanChart::number);
        plot.axes(g);
        plot.xTitle(g, xLabel);
        plot.title(g, yLabel);
        int i = 0;
        for (Map.Entry<String, List<PrivacyPlanner.Prediction>> entry : series.entrySet()) {
            List<PrivacyPlanner.Prediction> s = entry.getValue();
            double[] xs = new double[s.size()];
            double[] ys = new double[s.size()];
            for (int j = 0; j < s.size(); j++) {
                xs[j] = x.applyAsDouble(s.get(j));
                ys[j] = y.applyAsDouble(s.get(j));
            }
            plot.line(g, xs, ys, Palette.series(i++), stroke(entry.getKey()));
        }
    }

    /** The smallest to the largest positive value, a little wider, on a log scale. */
    private static Scale range(
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
            return Scale.log(0.1, 10);
        }
        // a tenth of a decade either side, half a decade at least
        return Scale.log(Math.pow(10, lo - 0.1), Math.pow(10, Math.max(hi + 0.1, lo + 0.5)));
    }

    private static String number(double v) {
        if (v >= 1000 || v < 0.001) {
            return String.format(Locale.ROOT, "%.0e", v);
        }
        return String.format(Locale.ROOT, "%.4g", v).replaceAll("\\.?0+$", "");
    }
}
