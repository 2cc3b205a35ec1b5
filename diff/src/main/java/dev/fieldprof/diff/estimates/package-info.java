/**
 * Release diff of field estimates: the frequency estimates of two app versions compared method by
 * method, with confidence intervals from the estimates' own standard errors and the
 * Benjamini–Yekutieli procedure over all compared methods. Methods are paired by signature, and
 * across renames and moves by the EFLASK matching of trees derived from the two releases' call
 * graphs. Flink-free; the statistics need only the JDK.
 */
package dev.fieldprof.diff.estimates;
