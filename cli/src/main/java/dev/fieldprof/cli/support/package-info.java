/**
 * What the CLI's commands share and that is not a command: the one-line failure every command ends
 * with ({@link dev.fieldprof.cli.support.CliFailure}) and where a checkout keeps the artifacts the
 * commands run ({@link dev.fieldprof.cli.support.CheckoutArtifacts}), and the per-user log file
 * ({@link dev.fieldprof.cli.support.LogFile}).
 */
package dev.fieldprof.cli.support;
