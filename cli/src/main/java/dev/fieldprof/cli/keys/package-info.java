/**
 * {@code fieldprof keys}: the analyst's key pair of the shuffled mode (generate, rotate, show). The
 * private keyset stays with the analyst's frequency job; the public keyset goes to devices.
 */
package dev.fieldprof.cli.keys;
