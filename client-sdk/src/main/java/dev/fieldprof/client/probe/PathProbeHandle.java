package dev.fieldprof.client.probe;

/**
 * One thread's receiver of path probe events: {@link PathProbeHandler#enter} returns it at a
 * method's entry probe, the instrumented method keeps it in a local variable of its own, and the
 * branch and exit probes of that invocation hand their events straight to it, so a thread is looked
 * up once per invocation, not at every event. A handle belongs to the thread it was returned to:
 * only that thread calls it (the local variable is never shared), so it needs no lock. Its methods
 * must not throw or block; {@code PathProbes} swallows and counts what they throw anyway.
 *
 * <p>An abstract class rather than an interface: the host's bytecode holds the handle as an {@code
 * Object}, and the cast back to a class compiles to one compare (to an interface, to a scan of the
 * secondary supertypes); with one subclass loaded the JIT then calls it directly.
 */
public abstract class PathProbeHandle {
    protected PathProbeHandle() {}

    /**
     * The current invocation's method {@code methodId} takes out-edge {@code edgeIndex} of block
     * {@code blockId}, which is its local edge {@code localEdge} (its out-edges numbered over its
     * branch nodes in block order, as the branch table numbers them).
     */
    public abstract void branch(int methodId, int blockId, int edgeIndex, int localEdge);

    /**
     * As above, from a jar instrumented before local edge numbers were passed: the handle looks the
     * edge up.
     */
    public abstract void branch(int methodId, int blockId, int edgeIndex);

    /** The current invocation of {@code methodId} returns normally. */
    public abstract void exit(int methodId);

    /** The current invocation of {@code methodId} is left by an exception. */
    public abstract void exitExceptionally(int methodId);
}
