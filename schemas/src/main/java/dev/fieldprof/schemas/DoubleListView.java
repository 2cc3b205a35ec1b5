package dev.fieldprof.schemas;

import java.util.AbstractList;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * A read-only {@code List<Double>} over a {@code double[]}, for the array fields of a generated
 * record (Avro's {@code array<double>} is a {@code List<Double>}). It boxes a value only when one
 * is read through {@link #get}; {@link RecordCodec} writes it from the array itself. An estimate at
 * a million methods holds three such arrays: as {@code ArrayList}s they were three million {@code
 * Double}s allocated, and unboxed again one by one to be written.
 *
 * <p>The view does not copy: the array must not change while the record is in use.
 */
public final class DoubleListView extends AbstractList<Double> implements RandomAccess {
    private final double[] values;

    private DoubleListView(double[] values) {
        this.values = values;
    }

    /** A view of {@code values}, which it does not copy. */
    public static DoubleListView of(double[] values) {
        return new DoubleListView(Objects.requireNonNull(values, "values"));
    }

    @Override
    public Double get(int index) {
        return values[Objects.checkIndex(index, values.length)];
    }

    @Override
    public int size() {
        return values.length;
    }

    /** The value at {@code index}, unboxed. */
    public double getDouble(int index) {
        return values[Objects.checkIndex(index, values.length)];
    }

    /** The array behind the view (not a copy): for writers that read it whole. */
    double[] array() {
        return values;
    }
}
