package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The site an instrumented class's static initializer gets for each traced method. */
class PathProbeSiteTest {
    private final List<String> events = new ArrayList<>();
    private final PathProbeHandler recorder =
            new PathProbeHandler() {
                @Override
                public void enter(int methodId) {
                    events.add("E" + methodId);
                }

                @Override
                public void branch(int methodId, int blockId, int edgeIndex) {
                    events.add("B" + methodId);
                }

                @Override
                public void exit(int methodId) {
                    events.add("X" + methodId);
                }

                @Override
                public void exitExceptionally(int methodId) {
                    events.add("T" + methodId);
                }
            };

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
        traced.enter();
        traced.branch(3, 1);
        untraced.enter();
        untraced.exit();
        traced.exitExceptionally();
        assertThat(events).containsExactly("E0", "B0", "T0");
    }

    @Test
    void withoutAPlanEveryMethodDispatchesAndFollowsLaterInstalls() {
        PathProbeSite site = PathProbes.site(4); // nothing installed yet, no device configured
        assertThat(site).isNotSameAs(PathProbeSite.UNTRACED);
        site.enter();
        assertThat(events).isEmpty();
        PathProbes.install(recorder);
        site.enter();
        site.exit();
        assertThat(events).containsExactly("E4", "X4");
    }
}
