package dev.fieldprof.jobs.paths;

import java.io.Serializable;

/**
 * The branch table of one app version, derived from its program model's CFGs, as the text form
 * ({@code fieldprof-branches 1}) that is broadcast to the model learner. A Flink POJO.
 */
public class ProgramBranches implements Serializable {
    private static final long serialVersionUID = 1L;

    public String appVersion;
    public String branches;

    public ProgramBranches() {}

    public ProgramBranches(String appVersion, String branches) {
        this.appVersion = appVersion;
        this.branches = branches;
    }
}
