package dev.fieldprof.estimation.chart;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * A white, antialiased RGB canvas that is written as a PNG. Creating one switches AWT to headless
 * mode, so a chart draws on a server without a display. Not thread-safe; one chart per instance.
 *
 * <pre>{@code
 * ChartImage image = new ChartImage(800, 400);
 * image.title("what the chart shows");
 * Graphics2D g = image.graphics(); // draw panels with PlotArea and Legend
 * image.writePng(Path.of("chart.png"));
 * }</pre>
 */
public final class ChartImage {
    /** The chart's title. */
    public static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 14);

    /** A panel's title. */
    public static final Font PANEL_TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 12);

    /** Tick labels, category labels and axis titles. */
    public static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 10);

    /** Legend entries. */
    public static final Font LEGEND = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    private final BufferedImage image;
    private final Graphics2D graphics;

    /** A white canvas of {@code width} × {@code height} pixels, both >= 1. */
    public ChartImage(int width, int height) {
        System.setProperty("java.awt.headless", "true");
        image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        graphics = image.createGraphics();
        graphics.setRenderingHint(
                RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        graphics.setColor(Color.WHITE);
        graphics.fillRect(0, 0, width, height);
        graphics.setColor(Color.BLACK);
    }

    /** Where to draw. */
    public Graphics2D graphics() {
        return graphics;
    }

    /** Draws the chart's title in the top left corner (baseline at y = 20). */
    public void title(String text) {
        graphics.setColor(Color.BLACK);
        graphics.setFont(TITLE);
        graphics.drawString(text, 10, 20);
    }

    /** Writes the canvas to {@code file} as a PNG; drawing on it afterwards has no effect. */
    public void writePng(Path file) throws IOException {
        graphics.dispose();
        ImageIO.write(image, "png", file.toFile());
    }
}
