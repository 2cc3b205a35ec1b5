package dev.fieldprof.cli;

import picocli.CommandLine;

/** Reports the version the CLI jar was built as. */
public final class FieldprofVersion implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = FieldprofVersion.class.getPackage().getImplementationVersion();
        return new String[] {"fieldprof " + (version == null ? "development build" : version)};
    }
}
