package dev.fieldprof.estimation.chart;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.Stroke;
import java.util.List;

/** A legend: one entry per series, in rows of {@code columns} entries. */
public final class Legend {
    /** Vertical distance of two rows of entries, in pixels. */
    public static final int ROW_HEIGHT = 16;

    private static final int SWATCH = 24;

    /**
     * One entry: a line swatch drawn with {@code stroke}, or a filled square when it is null (the
     * series are bars).
     */
    public record Entry(String label, Color color, Stroke stroke) {

        /** An entry of a line series. */
        public static Entry line(String label, Color color, Stroke stroke) {
            return new Entry(label, color, stroke);
        }

        /** An entry of a bar series. */
        public static Entry box(String label, Color color) {
            return new Entry(label, color, null);
        }
    }

    private Legend() {}

    /**
     * Draws the entries row by row from ({@code x}, {@code y}) (the first row's baseline), {@code
     * columns} per row, {@code columnWidth} pixels apart.
     */
    public static void draw(
            Graphics2D g, List<Entry> entries, int x, int y, int columns, int columnWidth) {
        g.setFont(ChartImage.LEGEND);
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            int ex = x + (i % columns) * columnWidth;
            int ey = y + (i / columns) * ROW_HEIGHT;
            g.setColor(entry.color());
            if (entry.stroke() == null) {
                g.fillRect(ex, ey - 9, 10, 10);
            } else {
                g.setStroke(entry.stroke());
                g.drawLine(ex, ey - 4, ex + SWATCH, ey - 4);
                g.setStroke(Palette.THIN);
            }
            g.setColor(Color.BLACK);
            g.drawString(entry.label(), ex + (entry.stroke() == null ? 14 : SWATCH + 6), ey);
        }
    }
}
