package dev.fieldprof.client;

/**
 * One instrumented method's path probes, held in a {@code static final} field of its class and
 * chosen once, when the class is initialized ({@link PathProbes#site}). A method its device does
 * not path-trace gets {@link #UNTRACED}: the JIT treats the static final field as a constant, so
 * its probe calls inline to nothing and the method costs its entry counter alone (the paper's
 * program variants, without a jar per variant). Never throws into the host.
 */
public abstract class PathProbeSite {
    /** The site of a method the device does not trace: every probe does nothing. */
    public static final PathProbeSite UNTRACED = new Untraced();

    PathProbeSite() {}

    public abstract void enter();

    public abstract void branch(int blockId, int edgeIndex);

    public abstract void exit();

    public abstract void exitExceptionally();

    private static final class Untraced extends PathProbeSite {
        @Override
        public void enter() {}

        @Override
        public void branch(int blockId, int edgeIndex) {}

        @Override
        public void exit() {}

        @Override
        public void exitExceptionally() {}
    }

    /**
     * A method traced, or not yet decided when its class was initialized (path tracing started
     * later, or a tool installs handlers itself): each probe goes through {@link PathProbes}, which
     * reads the installed handler and mask at every event.
     */
    static final class Dispatching extends PathProbeSite {
        private final int methodId;

        Dispatching(int methodId) {
            this.methodId = methodId;
        }

        @Override
        public void enter() {
            PathProbes.enter(methodId);
        }

        @Override
        public void branch(int blockId, int edgeIndex) {
            PathProbes.branch(methodId, blockId, edgeIndex);
        }

        @Override
        public void exit() {
            PathProbes.exit(methodId);
        }

        @Override
        public void exitExceptionally() {
            PathProbes.exitExceptionally(methodId);
        }
    }
}
