package dev.fieldprof.jobs.frequency.records;

import java.io.Serializable;

/**
 * A program model that decoded and checked out, as its encoded bytes and its {@code ProgramShape}
 * (|V| and the privacy configurations, a few hundred bytes): validation reads only the shape, the
 * estimating step decodes the model once into a cached {@code ProgramIndex}.
 */
public class ProgramUpdate implements Serializable {
    private static final long serialVersionUID = 1L;

    public String appVersion;

    /**
     * The model's encoded bytes, compressed ({@code StoredModels}); null in validation's copies,
     * which need only the shape.
     */
    public byte[] model;

    /** {@code ProgramShape.toBytes()} of the model. */
    public byte[] shape;

    /** The validation shard a copy is for ({@code CopyProgramToShards}); 0 elsewhere. */
    public int shard;

    public ProgramUpdate() {}

    public ProgramUpdate(String appVersion, byte[] model, byte[] shape) {
        this(appVersion, model, shape, 0);
    }

    public ProgramUpdate(String appVersion, byte[] model, byte[] shape, int shard) {
        this.appVersion = appVersion;
        this.model = model;
        this.shape = shape;
        this.shard = shard;
    }
}
