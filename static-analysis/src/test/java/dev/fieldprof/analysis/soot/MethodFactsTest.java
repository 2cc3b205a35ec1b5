package dev.fieldprof.analysis.soot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.analysis.FixtureJars;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exact facts of the fixture {@code factsapp}, as the loader computed them before it resolved calls
 * once per method reference, counted definitions instead of always asking Soot's reaching
 * definitions, and built successors and handlers without Soot's unit graph.
 */
class MethodFactsTest {

    private static final String AREA_CIRCLE = "<fa.Circle: double area()>";
    private static final String AREA_SQUARE = "<fa.Square: double area()>";

    @TempDir static Path work;
    static ProgramFacts facts;

    @BeforeAll
    static void load() throws IOException {
        Path jar = FixtureJars.compileToJar("factsapp", work, null);
        facts =
                SootProgramLoader.load(
                        new SootProgramLoader.Request(
                                jar,
                                List.of(),
                                Set.of("fa.Shape", "fa.Square", "fa.Circle", "fa.Calls"),
                                Set.of(),
                                Set.of(),
                                false,
                                false));
    }

    @Test
    void aVirtualCallDispatchesToBothOverridesAndItsSitesShareOneList() {
        CallSiteFacts loop = only(method("<fa.Calls: double total(fa.Shape[])>").callSites());
        CallSiteFacts onThis = method("<fa.Shape: java.lang.String describe()>").callSites().get(0);
        for (CallSiteFacts site : List.of(loop, onThis)) {
            assertThat(site.kind()).isEqualTo(CallKind.VIRTUAL);
            assertThat(site.declaredSignature()).isEqualTo("<fa.Shape: double area()>");
            assertThat(site.targets()).containsExactly(AREA_CIRCLE, AREA_SQUARE);
            assertThat(site.targetsComplete()).isTrue();
        }
        // An array element may be null; this may not.
        assertThat(loop.guaranteesEntry()).isFalse();
        assertThat(onThis.guaranteesEntry()).isTrue();
        assertThat(loop.targets()).isSameAs(onThis.targets());
    }

    @Test
    void statementsOfALoopOverAnArray() {
        MethodFacts total = method("<fa.Calls: double total(fa.Shape[])>");
        assertThat(total.statements()).isEqualTo(11);
        assertThat(only(total.callSites()).statement()).isEqualTo(6);
        StatementFacts code = total.code();
        assertThat(code.normalSuccessors())
                .isDeepEqualTo(
                        new int[][] {{1}, {2}, {3}, {4}, {5, 10}, {6}, {7}, {8}, {9}, {3}, {}});
        // The array's length and its element.
        assertThat(code.intrinsicThrow())
                .containsExactly(
                        false, false, false, true, false, true, false, false, false, false, false);
        assertThat(code.callSite()).containsExactly(-1, -1, -1, -1, -1, -1, 0, -1, -1, -1, -1);
        assertThat(code.returns()[10]).isTrue();
        assertThat(code.explicitExits())
                .containsExactly(
                        false, false, false, false, false, false, false, false, false, false, true);
    }

    @Test
    void anAllocatedReceiverIsEnteredForSure() {
        List<CallSiteFacts> sites = method("<fa.Calls: double fresh()>").callSites();
        assertThat(sites).hasSize(2);
        assertThat(sites.get(0).kind()).isEqualTo(CallKind.SPECIAL);
        assertThat(sites.get(0).targets()).containsExactly("<fa.Square: void <init>(double)>");
        assertThat(sites.get(1).kind()).isEqualTo(CallKind.VIRTUAL);
        assertThat(sites.get(1).targets()).containsExactly(AREA_SQUARE);
        for (CallSiteFacts site : sites) {
            assertThat(site.targetsComplete()).isTrue();
            assertThat(site.guaranteesEntry()).isTrue();
        }
    }

    @Test
    void aReceiverThatMayStillBeNullIsNotEnteredForSure() {
        // The Local holds null or a new Square at the call: its reaching definitions decide.
        MethodFacts maybe = method("<fa.Calls: double maybe(boolean)>");
        assertThat(maybe.callSites()).hasSize(2);
        assertThat(maybe.callSites().get(0).guaranteesEntry()).isTrue();
        CallSiteFacts area = maybe.callSites().get(1);
        assertThat(area.statement()).isEqualTo(9);
        assertThat(area.targets()).containsExactly(AREA_SQUARE);
        assertThat(area.guaranteesEntry()).isFalse();
        assertThat(maybe.code().normalSuccessors())
                .isDeepEqualTo(
                        new int[][] {{1}, {2}, {3, 6}, {4}, {5}, {6}, {7, 9}, {8}, {10}, {10}, {}});
    }

    @Test
    void aDivisionInATryBlockHasItsHandler() {
        MethodFacts divide = method("<fa.Calls: int divide(int,int)>");
        StatementFacts code = divide.code();
        assertThat(code.normalSuccessors())
                .isDeepEqualTo(new int[][] {{1}, {2}, {3}, {}, {5}, {6}, {}});
        assertThat(code.handlers()).isDeepEqualTo(new int[][] {{}, {}, {4}, {}, {}, {}, {}});
        assertThat(code.caughtForSure()).containsOnly(false);
        assertThat(code.intrinsicThrow())
                .containsExactly(false, false, true, false, false, false, false);
        CallSiteFacts twice = only(divide.callSites());
        assertThat(twice.statement()).isEqualTo(5);
        assertThat(twice.kind()).isEqualTo(CallKind.STATIC);
        assertThat(twice.targets()).containsExactly("<fa.Calls: int twice(int)>");
        assertThat(twice.targetsComplete()).isTrue();
        assertThat(twice.guaranteesEntry()).isTrue();
    }

    private static MethodFacts method(String signature) {
        MethodFacts method = facts.methods().get(signature);
        assertThat(method).as(signature).isNotNull();
        return method;
    }

    private static CallSiteFacts only(List<CallSiteFacts> sites) {
        assertThat(sites).hasSize(1);
        return sites.get(0);
    }
}
