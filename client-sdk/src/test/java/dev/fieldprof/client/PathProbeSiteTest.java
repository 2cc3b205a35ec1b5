package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.client.probe.PathProbeHandler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The site an instrumented class's static initializer gets for each traced method. */
class PathProbeSiteTest {
    private final List<String> events = new ArrayList<>();

    /** Records events as "E0", "B0", ...; its one handle adds the handler's name to the others. */
    private final class Recorder extends PathProbeHandle implements PathProbeHandler {
        private final String name;

        Recorder(String name) {
            this.name = name;
        }

        @Override
        public PathProbeHandle enter(int methodId) {
            events.add(name + "E" + methodId);
            return this;
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex, int localEdge) {
            events.add(name + "B" + methodId + "." + localEdge);
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex) {
            events.add(name + "B" + methodId);
        }

        @Override
        public void exit(int methodId) {
            events.add(name + "X" + methodId);
        }

        @Override
        public void exitExceptionally(int methodId) {
            events.add(name + "T" + methodId);
        }
    }

    private final Recorder recorder = new Recorder("");

    @AfterEach
    void off() {
        PathProbes.uninstall();
    }

    @Test
    void aMethodOutsideTheDevicesVariantGetsTheSiteThatDoesNothing() {
        PathProbes.install(recorder, new boolean[] {true, false});
        PathProbeSite traced = PathProbes.site(0);
        PathProbeSite untraced = PathProbes.site(1);
        assertThat(untraced).isSameAs(PathProbeSite.UNTRACED);
        assertThat(PathProbes.site(7)).as("outside the plan").isSameAs(PathProbeSite.UNTRACED);
        Object h = traced.enter();
        assertThat(h).isSameAs(recorder);
        traced.branch(h, 3, 1, 5);
        traced.branch(h, 3, 1); // the probe of a jar instrumented before local edges
        Object none = untraced.enter();
        assertThat(none).isNull();
        untraced.branch(none, 3, 1, 5);
        untraced.exit(none);
        traced.exitExceptionally(h);
        assertThat(events).containsExactly("E0", "B0.5", "B0", "T0");
    }

    @Test
    void withoutAPlanEveryMethodDispatchesAndFollowsLaterInstalls() {
        PathProbeSite site = PathProbes.site(4); // nothing installed yet, no device configured
        assertThat(site).isNotSameAs(PathProbeSite.UNTRACED);
        Object before = site.enter();
        assertThat(before).isNull();
        site.exit(before);
        assertThat(events).isEmpty();
        PathProbes.install(recorder);
        site.exit(site.enter());
        assertThat(events).containsExactly("E4", "X4");
    }

    @Test
    void anInvocationEndsWithTheHandlerItEnteredEvenAfterAnotherIsInstalled() {
        PathProbeSite site = PathProbes.site(2);
        PathProbes.install(new Recorder("old"));
        Object outer = site.enter();
        PathProbes.install(new Recorder("new"));
        Object inner = site.enter();
        site.branch(outer, 0, 0, 0);
        site.exit(inner);
        PathProbes.uninstall();
        site.exit(outer);
        assertThat(events).containsExactly("oldE2", "newE2", "oldB2.0", "newX2", "oldX2");
    }
}
