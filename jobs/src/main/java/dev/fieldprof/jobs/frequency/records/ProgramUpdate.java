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

    public ProgramUpdate() {}

    public ProgramUpdate(String appVersion, byte[] model) {
        this.appVersion = appVersion;
        this.model = model;
    }
}
