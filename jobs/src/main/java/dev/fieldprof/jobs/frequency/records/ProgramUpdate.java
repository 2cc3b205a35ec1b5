package dev.fieldprof.jobs.frequency.records;

import java.io.Serializable;

/**
 * A program model that decoded and checked out, as its encoded bytes: broadcast to the operators
 * that validate and estimate, which decode it once into a cached {@code ProgramIndex}.
 */
public class ProgramUpdate implements Serializable {
    private static final long serialVersionUID = 1L;

    public String appVersion;
    public byte[] model;

    /** The validation shard a copy is for ({@code CopyProgramToShards}); 0 elsewhere. */
    public int shard;

    public ProgramUpdate() {}

    public ProgramUpdate(String appVersion, byte[] model) {
        this(appVersion, model, 0);
    }

    public ProgramUpdate(String appVersion, byte[] model, int shard) {
        this.appVersion = appVersion;
        this.model = model;
        this.shard = shard;
    }
}
