/**
 * Plain Java2D charts, headless and without a charting library: the PNG canvas ({@link
 * dev.fieldprof.estimation.chart.ChartImage}), linear and log scales ({@link
 * dev.fieldprof.estimation.chart.Scale}), a plot area with its axes, tick labels, grid, lines and
 * bars ({@link dev.fieldprof.estimation.chart.PlotArea}), legends ({@link
 * dev.fieldprof.estimation.chart.Legend}) and the series colours and strokes ({@link
 * dev.fieldprof.estimation.chart.Palette}). The accuracy study, the privacy plan and the
 * benchmarks' charts draw with it, so they share one look. It lives here, in the lowest module all
 * of them depend on, and needs nothing beyond the JDK.
 */
package dev.fieldprof.estimation.chart;
