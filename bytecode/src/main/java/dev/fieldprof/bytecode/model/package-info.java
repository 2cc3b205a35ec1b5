/**
 * The program model's structure from bytecode: the method inventory V, the call graph, the CFGs,
 * and the reading and writing of model files.
 */
package dev.fieldprof.bytecode.model;
