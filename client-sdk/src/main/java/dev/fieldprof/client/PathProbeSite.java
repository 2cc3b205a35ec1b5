package dev.fieldprof.client;

/**
 * One instrumented method's path probes, held in a {@code static final} field of its class and
 * chosen once, when the class is initialized ({@link PathProbes#site}). A method its device does
 * not path-trace gets {@link #UNTRACED}: the JIT treats the static final field as a constant, so
 * its probe calls inline to nothing and the method costs its entry counter alone (the program
 * variants of probe distribution, docs/references.md, without a jar per variant). Never throws into
 * the host.
 */
public abstract class PathProbeSite {
    /** The site of a method the device does not trace: every probe does nothing. */
    public static final PathProbeSite UNTRACED = new Untraced();

    PathProbeSite() {}

    /**
     * The method's entry: returns the handle (or null) that the instrumented method keeps in a
     * local variable and passes to this invocation's other probes ({@link PathProbes#enter}).
     */
    public abstract Object enter();

    /**
     * Out-edge {@code edgeIndex} of block {@code blockId} taken, {@code localEdge} its number among
     * the method's out-edges (what the path coder codes; the instrumenter computes it).
     */
    public abstract void branch(Object handle, int blockId, int edgeIndex, int localEdge);

    /** The branch probe of a jar instrumented before local edge numbers were passed. */
    public abstract void branch(Object handle, int blockId, int edgeIndex);

    public abstract void exit(Object handle);

    public abstract void exitExceptionally(Object handle);

    private static final class Untraced extends PathProbeSite {
        @Override
        public Object enter() {
            return null;
        }

        @Override
        public void branch(Object handle, int blockId, int edgeIndex, int localEdge) {}

        @Override
        public void branch(Object handle, int blockId, int edgeIndex) {}

        @Override
        public void exit(Object handle) {}

        @Override
        public void exitExceptionally(Object handle) {}
    }

    /**
     * A method traced, or not yet decided when its class was initialized (path tracing started
     * later, or a tool installs handlers itself): each probe goes through {@link PathProbes}, which
     * reads the installed handler and mask at the entry; the entry's handle carries the
     * invocation's other events.
     */
    static final class Dispatching extends PathProbeSite {
        private final int methodId;

        Dispatching(int methodId) {
            this.methodId = methodId;
        }

        @Override
        public Object enter() {
            return PathProbes.enter(methodId);
        }

        @Override
        public void branch(Object handle, int blockId, int edgeIndex, int localEdge) {
            PathProbes.branch(handle, methodId, blockId, edgeIndex, localEdge);
        }

        @Override
        public void branch(Object handle, int blockId, int edgeIndex) {
            PathProbes.branch(handle, methodId, blockId, edgeIndex);
        }

        @Override
        public void exit(Object handle) {
            PathProbes.exit(handle, methodId);
        }

        @Override
        public void exitExceptionally(Object handle) {
            PathProbes.exitExceptionally(handle, methodId);
        }
    }
}
