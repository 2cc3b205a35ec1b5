package dev.fieldprof.estimation.chart;

import java.awt.Color;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Stroke;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * The rectangle a panel plots in, with its two scales: turns values into pixels and draws the axes,
 * labelled ticks with their grid lines, lines of points and bars. Tick labels go left of the y axis
 * and below the x axis, the title above the plot and the x axis' title below its labels, so a panel
 * needs about 50 pixels to its left and 40 below.
 *
 * @param left the x pixel of the y axis
 * @param bottom the y pixel of the x axis
 * @param width the plot's width in pixels
 * @param height the plot's height in pixels
 * @param x the horizontal scale
 * @param y the vertical scale
 */
public record PlotArea(int left, int bottom, int width, int height, Scale x, Scale y) {

    /** A plot of bars: categories along x (positions by pixel), values along {@code y}. */
    public static PlotArea bars(int left, int bottom, int width, int height, Scale y) {
        return new PlotArea(left, bottom, width, height, Scale.linear(0, 1), y);
    }

    /** The x pixel of {@code value}. */
    public int px(double value) {
        return left + (int) Math.round(x.fraction(value) * width);
    }

    /** The y pixel of {@code value}. */
    public int py(double value) {
        return bottom - (int) Math.round(y.fraction(value) * height);
    }

    /** The y pixel of the plot's top edge. */
    public int top() {
        return bottom - height;
    }

    /** The panel's title, above the plot. */
    public void title(Graphics2D g, String text) {
        g.setColor(Color.BLACK);
        g.setFont(ChartImage.PANEL_TITLE);
        g.drawString(text, left, top() - 12);
    }

    /** The x axis' title, centred below its tick labels. */
    public void xTitle(Graphics2D g, String text) {
        g.setColor(Color.BLACK);
        g.setFont(ChartImage.LABEL);
        FontMetrics metrics = g.getFontMetrics();
        g.drawString(text, left + (width - metrics.stringWidth(text)) / 2, bottom + 30);
    }

    /** The x and y axes, along the plot's bottom and left edges. */
    public void axes(Graphics2D g) {
        g.setColor(Color.BLACK);
        g.setStroke(Palette.THIN);
        g.drawLine(left, bottom, left + width, bottom);
        g.drawLine(left, bottom, left, top());
    }

    /** Horizontal grid lines at {@code ticks} of the y scale, labelled left of the axis. */
    public void yTicks(Graphics2D g, List<Double> ticks, DoubleFunction<String> label) {
        g.setFont(ChartImage.LABEL);
        g.setStroke(Palette.THIN);
        FontMetrics metrics = g.getFontMetrics();
        for (double tick : ticks) {
            int py = py(tick);
            g.setColor(Palette.GRID);
            g.drawLine(left + 1, py, left + width, py);
            g.setColor(Color.BLACK);
            String text = label.apply(tick);
            g.drawString(text, left - 6 - metrics.stringWidth(text), py + 4);
        }
    }

    /** Vertical grid lines at {@code ticks} of the x scale, labelled below the axis. */
    public void xTicks(Graphics2D g, List<Double> ticks, DoubleFunction<String> label) {
        g.setFont(ChartImage.LABEL);
        g.setStroke(Palette.THIN);
        FontMetrics metrics = g.getFontMetrics();
        for (double tick : ticks) {
            int px = px(tick);
            g.setColor(Palette.GRID);
            g.drawLine(px, bottom - 1, px, top());
            g.setColor(Color.BLACK);
            String text = label.apply(tick);
            g.drawString(text, px - metrics.stringWidth(text) / 2, bottom + 14);
        }
    }

    /**
     * A series as dots joined by lines, in the order given; a NaN coordinate leaves a gap.
     *
     * @param xs the points' x values
     * @param ys the points' y values, as many as {@code xs}
     */
    public void line(Graphics2D g, double[] xs, double[] ys, Color color, Stroke stroke) {
        g.setColor(color);
        g.setStroke(stroke);
        int lastX = -1;
        int lastY = -1;
        boolean joined = false;
        for (int i = 0; i < xs.length; i++) {
            if (Double.isNaN(xs[i]) || Double.isNaN(ys[i])) {
                joined = false;
                continue;
            }
            int px = px(xs[i]);
            int py = py(ys[i]);
            g.fillOval(px - 3, py - 3, 6, 6);
            if (joined) {
                g.drawLine(lastX, lastY, px, py);
            }
            lastX = px;
            lastY = py;
            joined = true;
        }
        g.setStroke(Palette.THIN);
    }

    /** A bar from the x axis up to {@code value}, {@code barWidth} pixels wide from {@code x}. */
    public void bar(Graphics2D g, int x, int barWidth, double value, Color color) {
        int top = py(value);
        g.setColor(color);
        g.fillRect(x, top, barWidth, bottom - top);
    }
}
