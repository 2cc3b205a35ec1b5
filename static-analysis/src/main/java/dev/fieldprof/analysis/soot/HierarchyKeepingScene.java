package dev.fieldprof.analysis.soot;

import soot.FastHierarchy;
import soot.G;
import soot.Scene;
import soot.Singletons;

/**
 * Soot's scene, able to keep its class hierarchy while Jimple bodies are built.
 *
 * <p>Soot drops its {@link FastHierarchy} whenever a class enters the scene, and the next method
 * resolution rebuilds it over every class, JDK included. A body that holds a lambda adds a class
 * (the one {@code LambdaMetaFactory} makes for it) and resolves the lambda's implementation method
 * right after, so the bodies of a program with tens of thousands of lambdas rebuilt the hierarchy
 * once per lambda: 91% of the time spent building the bodies of a program of 245,837 methods.
 *
 * <p>While {@link #keepHierarchy(boolean) kept}, the hierarchy built before is kept when classes
 * enter the scene. What body building asks of it does not depend on the classes added meanwhile:
 * lambda classes are leaves that implement an existing interface, and resolving a method reference
 * walks the classes themselves, consulting the hierarchy only to order the default methods of
 * interfaces that were there before. (Other classes enter as references first met in a body; a new
 * hierarchy leaves them out while they are below the hierarchy level.) The pairs of commons-lang3,
 * gson and guava hash the same with and without it. Whoever needs the added classes (dispatch over
 * lambda classes) releases the hierarchy once bodies are built and builds a new one.
 */
final class HierarchyKeepingScene extends Scene {

    private static final Object INSTALL_LOCK = new Object();
    private static boolean installed;

    private boolean keep;

    private HierarchyKeepingScene(Singletons.Global global) {
        super(global);
    }

    /**
     * Makes this the scene of every {@link G} from now on, {@link G#reset()} included. Only this
     * package uses Soot, so replacing its global scene affects nobody else.
     */
    static void install() {
        synchronized (INSTALL_LOCK) {
            if (!installed) {
                G.setGlobalObjectGetter(new Getter());
                G.reset();
                installed = true;
            }
        }
    }

    /** The current scene, after {@link #install()}. */
    static HierarchyKeepingScene current() {
        return (HierarchyKeepingScene) Scene.v();
    }

    /**
     * From now on, keep the hierarchy (built now if there is none) when classes enter the scene
     * ({@code true}), or drop it as Soot does ({@code false}).
     */
    synchronized void keepHierarchy(boolean keep) {
        if (keep) {
            getOrMakeFastHierarchy();
        }
        this.keep = keep;
    }

    @Override
    protected synchronized void modifyHierarchy() {
        FastHierarchy kept = keep ? activeFastHierarchy : null;
        super.modifyHierarchy();
        if (kept != null) {
            activeFastHierarchy = kept;
        }
    }

    @Override
    public synchronized void releaseFastHierarchy() {
        if (!keep) {
            super.releaseFastHierarchy();
        }
    }

    /** A {@link G} whose scene is a {@link HierarchyKeepingScene}. */
    private static final class KeepingG extends G {

        private HierarchyKeepingScene scene;

        @Override
        public synchronized Scene soot_Scene() {
            if (scene == null) {
                scene = new HierarchyKeepingScene(g);
            }
            return scene;
        }
    }

    /** Hands out one {@link KeepingG}, a fresh one after each reset. */
    private static final class Getter implements G.GlobalObjectGetter {

        private KeepingG instance = new KeepingG();

        @Override
        public synchronized G getG() {
            return instance;
        }

        @Override
        public synchronized void reset() {
            instance = new KeepingG();
        }
    }
}
