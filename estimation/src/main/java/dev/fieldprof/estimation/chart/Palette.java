package dev.fieldprof.estimation.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.List;

/** The series colours and line strokes the charts share. */
public final class Palette {
    /** Okabe–Ito colours: readable for the common colour-vision deficiencies. */
    public static final List<Color> SERIES =
            List.of(
                    new Color(0x00, 0x72, 0xB2),
                    new Color(0xD5, 0x5E, 0x00),
                    new Color(0x00, 0x9E, 0x73),
                    new Color(0xCC, 0x79, 0xA7),
                    new Color(0xE6, 0x9F, 0x00),
                    new Color(0x56, 0xB4, 0xE9),
                    new Color(0x00, 0x00, 0x00),
                    new Color(0x99, 0x99, 0x99));

    /** Grid lines, behind the data. */
    public static final Color GRID = new Color(0xdd, 0xdd, 0xdd);

    /** Axes and plain lines. */
    public static final BasicStroke THIN = new BasicStroke(1f);

    /** A series' line. */
    public static final BasicStroke SOLID = new BasicStroke(2f);

    /** A second kind of series, told apart by more than colour. */
    public static final BasicStroke DASHED = pattern(7f, 4f);

    /** A third kind of series. */
    public static final BasicStroke DOTTED = pattern(2f, 4f);

    private Palette() {}

    /** The colour of the {@code index}th series (0-based), repeating after eight. */
    public static Color series(int index) {
        return SERIES.get(Math.floorMod(index, SERIES.size()));
    }

    private static BasicStroke pattern(float dash, float gap) {
        return new BasicStroke(
                2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {dash, gap}, 0f);
    }
}
