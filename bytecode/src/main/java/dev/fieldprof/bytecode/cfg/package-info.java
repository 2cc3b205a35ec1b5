/**
 * Control-flow graphs of methods as ASM reads their bytecode, built on the same bytes the
 * instrumenter rewrites, so that a device, the decoder and the jobs agree on every block and branch
 * id.
 */
package dev.fieldprof.bytecode.cfg;
