package dev.fieldprof.jobs.paths;

import java.io.Serializable;

/**
 * What the path job learns besides reports, broadcast to every subtask: the branch table of an app
 * version (from its program model) or an edge model published on the model topic (by this job or
 * another). Exactly one of {@link #branches} and {@link #model} is set. A Flink POJO.
 */
public class PathSideInput implements Serializable {
    private static final long serialVersionUID = 1L;

    public String appVersion;

    /** Branch description text ({@code fieldprof-branches 1}), or null. */
    public String branches;

    /** An EdgeModel record's bytes as published, or null. */
    public byte[] model;

    /**
     * With {@link #branches}: the program model's probe plan ({@code fieldprof-plan 1} text), or
     * null if it has none.
     */
    public String plan;

    public PathSideInput() {}

    private PathSideInput(String appVersion, String branches, byte[] model) {
        this.appVersion = appVersion;
        this.branches = branches;
        this.model = model;
    }

    public static PathSideInput branches(String appVersion, String branches) {
        return new PathSideInput(appVersion, branches, null);
    }

    /** A program model's branch table and probe plan (null if it has none). */
    public static PathSideInput program(String appVersion, String branches, String plan) {
        PathSideInput input = new PathSideInput(appVersion, branches, null);
        input.plan = plan;
        return input;
    }

    public static PathSideInput model(String appVersion, byte[] model) {
        return new PathSideInput(appVersion, null, model);
    }
}
