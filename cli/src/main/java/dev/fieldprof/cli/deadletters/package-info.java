/** {@code fieldprof dead-letters}: what to do with the records the jobs could not use. */
package dev.fieldprof.cli.deadletters;
