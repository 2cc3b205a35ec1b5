package dev.fieldprof.analysis.soot;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import soot.FastHierarchy;
import soot.G;
import soot.Modifier;
import soot.Scene;
import soot.SootClass;

class HierarchyKeepingSceneTest {

    private SootClass object;
    private SootClass function;

    @BeforeEach
    void scene() {
        HierarchyKeepingScene.install();
        G.reset();
        object = new SootClass("java.lang.Object", Modifier.PUBLIC);
        Scene.v().addClass(object);
        function =
                new SootClass("java.util.function.Function", Modifier.PUBLIC | Modifier.INTERFACE);
        function.setSuperclass(object);
        Scene.v().addClass(function);
    }

    @AfterEach
    void reset() {
        G.reset();
    }

    @Test
    void classesEnteringTheSceneKeepTheHierarchyWhileKept() {
        HierarchyKeepingScene scene = HierarchyKeepingScene.current();
        scene.keepHierarchy(true);
        FastHierarchy kept = scene.getFastHierarchy();
        // Soot's LambdaMetaFactory adds each lambda class, then releases the hierarchy itself.
        scene.addClass(lambdaClass("Lambda$1"));
        scene.releaseFastHierarchy();
        scene.addClass(lambdaClass("Lambda$2"));
        assertSame(kept, scene.getFastHierarchy());
        // The kept hierarchy is the scene's at the start: without the lambda classes.
        assertFalse(kept.getAllImplementersOfInterface(function).contains(lambda("Lambda$1")));

        scene.keepHierarchy(false);
        scene.addClass(lambdaClass("Lambda$3"));
        assertFalse(scene.hasFastHierarchy());
        assertTrue(
                scene.getOrMakeFastHierarchy()
                        .getAllImplementersOfInterface(function)
                        .contains(lambda("Lambda$1")));
    }

    @Test
    void unkeptTheSceneDropsTheHierarchyForEachClassAsSootDoes() {
        Scene.v().getOrMakeFastHierarchy();
        Scene.v().addClass(lambdaClass("Lambda$1"));
        assertFalse(Scene.v().hasFastHierarchy());
        Scene.v().getOrMakeFastHierarchy();
        Scene.v().releaseFastHierarchy();
        assertFalse(Scene.v().hasFastHierarchy());
    }

    @Test
    void theSceneStaysAHierarchyKeepingOneAcrossResets() {
        G.reset();
        assertTrue(Scene.v() instanceof HierarchyKeepingScene);
    }

    private SootClass lambdaClass(String name) {
        SootClass lambda = new SootClass(name, Modifier.FINAL);
        lambda.setSuperclass(object);
        lambda.addInterface(function);
        return lambda;
    }

    private static SootClass lambda(String name) {
        return Scene.v().getSootClass(name);
    }
}
