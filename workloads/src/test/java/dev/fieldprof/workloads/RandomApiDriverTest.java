package dev.fieldprof.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.workloads.testapi.Calls;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RandomApiDriverTest {

    private static final String API = "dev.fieldprof.workloads.testapi.";

    private static RandomApiDriver driver(String pkg, String... simpleNames) {
        List<String> names = new ArrayList<>();
        for (String name : simpleNames) {
            names.add(API + pkg + "." + name);
        }
        return new RandomApiDriver(RandomApiDriverTest.class.getClassLoader(), names, API + pkg);
    }

    @BeforeEach
    void clearCalls() {
        Calls.reset();
    }

    @Test
    void callsUntilTheEventTargetWithinItsCallBounds() {
        RandomApiDriver driver = driver("tick", "Ticker");
        assertThat(driver.apiSize()).isEqualTo(1); // tick(); the constructor is private
        assertThat(driver.classCount()).isEqualTo(1);

        assertThat(driver.run(42, Calls::count, 10, 3, 100))
                .isEqualTo(new RandomApiDriver.Run(10, false));
        assertThat(Calls.count()).isEqualTo(10);

        Calls.reset();
        assertThat(driver.run(42, Calls::count, 0, 3, 100).calls()).isEqualTo(3);

        Calls.reset();
        assertThat(driver.run(42, Calls::count, 10, 3, 5))
                .isEqualTo(new RandomApiDriver.Run(5, false));
        assertThat(Calls.LOG).containsExactly("tick", "tick", "tick", "tick", "tick");

        Calls.reset();
        assertThat(driver.run(42, 7)).isEqualTo(new RandomApiDriver.Run(7, false));
        assertThat(Calls.count()).isEqualTo(7);
    }

    @Test
    void rejectsCallBoundsOutOfOrder() {
        RandomApiDriver driver = driver("tick", "Ticker");
        assertThatThrownBy(() -> driver.run(1, Calls::count, 0, 5, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("need 0 <= minCalls <= maxCalls, got 5 and 4");
        assertThatThrownBy(() -> driver.run(1, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("need 0 <= minCalls <= maxCalls, got -1 and -1");
        assertThat(Calls.LOG).isEmpty();
    }

    @Test
    void refusesToRunWithoutAnyPublicApi() {
        RandomApiDriver driver = driver("mixed", "Hidden", "ThreadPool");
        assertThat(driver.apiSize()).isZero();
        assertThatThrownBy(() -> driver.run(1, 10))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("no public API to drive");
    }

    @Test
    void neverCallsWhatCouldBlockOrReconfigureTheJvm() {
        RandomApiDriver driver = driver("mixed", "Hidden", "Mixed", "ThreadPool");
        // new Mixed() and append(String): not sleepUntil, readFrom, setDefaultLocale, main, the
        // package-private method, the class named after threads or the package-private class.
        assertThat(driver.apiSize()).isEqualTo(2);
        assertThat(driver.classCount()).isEqualTo(1);
        driver.run(5, 300);
        assertThat(Calls.LOG)
                .isNotEmpty()
                .allMatch(call -> call.equals("new") || call.equals("append"));
        assertThat(Calls.LOG).contains("new", "append");
    }

    @Test
    void namesOnlyMethodsThatMayBlockStopOrReconfigureTheJvmRisky() {
        assertThat(RandomApiDriver.risky("readFrom")).isTrue();
        assertThat(RandomApiDriver.risky("setDefaultTimeZone")).isTrue();
        assertThat(RandomApiDriver.risky("setProperty")).isTrue();
        assertThat(RandomApiDriver.risky("awaitTermination")).isTrue();
        assertThat(RandomApiDriver.risky("waitFor")).isTrue();
        assertThat(RandomApiDriver.risky("joinAll")).isTrue();
        assertThat(RandomApiDriver.risky("getenv")).isTrue();
        assertThat(RandomApiDriver.risky("main")).isTrue();
        assertThat(RandomApiDriver.risky("mainly")).isFalse();
        assertThat(RandomApiDriver.risky("append")).isFalse();
    }

    @Test
    void valuesAboveTheSizeCapAreOversized() {
        int cap = RandomApiDriver.MAX_SIZE;
        assertThat(RandomApiDriver.oversized("x".repeat(cap))).isFalse();
        assertThat(RandomApiDriver.oversized("x".repeat(cap + 1))).isTrue();
        assertThat(RandomApiDriver.oversized(new StringBuilder("x".repeat(cap + 1)))).isTrue();
        assertThat(RandomApiDriver.oversized(new int[cap])).isFalse();
        assertThat(RandomApiDriver.oversized(new int[cap + 1])).isTrue();
        assertThat(RandomApiDriver.oversized(new ArrayList<>(Collections.nCopies(cap + 1, 0))))
                .isTrue();
        assertThat(RandomApiDriver.oversized(java.util.Map.of(1, 2))).isFalse();
        assertThat(RandomApiDriver.oversized(List.of(1, 2))).isFalse();
        assertThat(RandomApiDriver.oversized(42)).isFalse();
    }

    @Test
    void forgetsAReceiverOnceACallMadeItOversized() {
        RandomApiDriver driver = driver("pile", "Pile");
        assertThat(driver.apiSize()).isEqualTo(2); // new Pile(), grow()
        driver.run(3, 2_000);
        // Sizes go 1, 1025, 2049, 3073, 4097: the call that passes the cap is the pile's last.
        assertThat(Calls.largestReceiver).isEqualTo(3 * 1024 + 1);
    }

    @Test
    void aSeedNamesOneRun() {
        RandomApiDriver driver = driver("shelf", "Shelf");
        assertThat(driver.apiSize()).isEqualTo(5);
        RandomApiDriver.Run first = driver.run(11, 300);
        List<String> calls = List.copyOf(Calls.LOG);
        Calls.reset();
        assertThat(driver(("shelf"), "Shelf").run(11, 300)).isEqualTo(first);
        assertThat(Calls.LOG).isEqualTo(calls);
        Calls.reset();
        driver.run(12, 300);
        assertThat(Calls.LOG).isNotEqualTo(calls);
        // The walk of a seed is pinned: changing it changes the soundness and accuracy figures
        // published in static-analysis/README.md and benchmarks/README.md.
        assertThat(calls.subList(0, 12))
                .containsExactly(
                        "new Shelf(0xFF)",
                        "new Shelf(\u00e4\u00f6\u00dc)",
                        "of(6.0)",
                        "new Shelf(#6.0)",
                        "of(5.5)",
                        "new Shelf(#5.5)",
                        "#6.0.put(-1)",
                        "#6.0.put(11)",
                        "\u00e4\u00f6\u00dc.items() = 0",
                        "of(4.0)",
                        "new Shelf(#4.0)",
                        "#4.0.items() = 0");
        // A shelf merge(...) returned comes back as an argument, and as a receiver.
        assertThat(calls)
                .contains(
                        "#1.5.merge(\u00e4\u00f6\u00dc+\u00e4\u00f6\u00dc)",
                        "\u00e4\u00f6\u00dc+\u00e4\u00f6\u00dc.put(0)");
    }

    @Test
    void marksARunThatSawAVmErrorButNotOneThatSawLibraryExceptions() {
        assertThat(driver("fault", "Failing").run(1, 5))
                .isEqualTo(new RandomApiDriver.Run(5, false));
        assertThat(driver("fault", "Overflowing").run(1, 5))
                .isEqualTo(new RandomApiDriver.Run(5, true));
    }
}
