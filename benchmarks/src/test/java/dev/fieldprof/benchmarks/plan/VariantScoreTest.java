package dev.fieldprof.benchmarks.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Identification and false reports (Section 5.3 of probe distribution, docs/references.md) on four
 * hand-made sites, with the exact expected counts worked out in the comments.
 */
class VariantScoreTest {

    // Site 0: 0 calls 1 calls 2, then 0 calls 3. Full: (0,1,2) at 3, (0,3) at 6.
    static final int[] SITE0 = {0, 1, 2, ~2, ~1, 3, ~3, ~0};
    // Site 1: 0 calls 3; later 0 calls 1 calls 3. Full: (0,3) at 2, (0,1,3) at 7.
    static final int[] SITE1 = {0, 3, ~3, ~0, 0, 1, 3, ~3, ~1, ~0};
    // Sites 2 and 3: 4 calls 5 calls 2. Full: (4,5,2) at 3.
    static final int[] SITE23 = {4, 5, 2, ~2, ~5, ~4};

    static FieldChains field() {
        List<ChainTrace> traces = new ArrayList<>();
        for (int[] site : new int[][] {SITE0, SITE1, SITE23, SITE23}) {
            traces.add(ChainTrace.of(site));
        }
        return new FieldChains(6, 8, traces);
    }

    @Test
    void fullReportsEachLeafAtItsExit() {
        FieldChains field = field();
        ChainTrie trie = field.trie();
        assertThat(field.fullReportAt(0, 3)).isEqualTo(trie.intern(0, 1, 2));
        assertThat(field.fullReportAt(0, 6)).isEqualTo(trie.intern(0, 3));
        assertThat(field.fullReportAt(0, 7)).isEqualTo(ChainTrie.ROOT);
        assertThat(field.fullReportAt(1, 7)).isEqualTo(trie.intern(0, 1, 3));
        assertThat(field.exercised()).hasSize(4);
    }

    @Test
    void countsIdentifiedAndBothKindsOfFalseReports() {
        FieldChains field = field();
        int[][] variants = {{0, 1, 2}, {0, 3}, {2, 4}, {4, 5}};
        VariantScore score = VariantScore.of(field, variants, new int[] {0, 1, 2, 3});
        // Site 0 (0,1,2 probed): (0,1,2) at 3, correct; 0 called 1, so no report at 7.
        // Site 1 (0,3 probed): (0,3) at 2 correct; (0,3) at 7, where Full reports (0,1,3):
        //   false by case (2), a chain Full reports, but elsewhere.
        // Site 2 (4,2 probed): (4,2) at 3, a chain Full never reports: false by case (1).
        // Site 3 (4,5 probed): 5 looks like a leaf, (4,5) at 4 where Full reports nothing: false.
        assertThat(score).isEqualTo(new VariantScore(2, 3, 3));
        assertThat(score.falseRatio()).isEqualTo(1.5);
    }

    @Test
    void fullProbesIdentifyEverythingAndReportNothingFalse() {
        FieldChains field = field();
        int[] all = {0, 1, 2, 3, 4, 5};
        VariantScore score =
                VariantScore.of(field, new int[][] {all, all, all, all}, new int[] {0, 1, 2, 3});
        assertThat(score).isEqualTo(new VariantScore(4, 0, 0));
    }

    @Test
    void sitesSharingAVariantAreMaskedAlike() {
        FieldChains field = field();
        // One variant probing 0 and 3 for every site.
        VariantScore score = VariantScore.of(field, new int[][] {{0, 3}}, new int[] {0, 0, 0, 0});
        // Site 0: (0,3) at 6 correct, (0) at 7? 0 called 3, so no. Site 1: as above, 1 false.
        assertThat(score).isEqualTo(new VariantScore(1, 1, 1));
    }

    @Test
    void replayDropsBackEdgesAndCutsAtTheBound() {
        // 0 calls 1 calls 0 (recursion) calls 2.
        ChainTrace trace = ChainTrace.of(0, 1, 0, 2, ~2, ~0, ~1, ~0);
        ChainTrie trie = new ChainTrie();
        List<String> reports = new ArrayList<>();
        ChainReplay.replay(
                trace,
                null,
                8,
                trie,
                (t, c) -> reports.add(t + ":" + java.util.Arrays.toString(trie.methods(c))));
        assertThat(reports).containsExactly("6:[0, 1]");
        reports.clear();
        ChainReplay.replay(
                trace,
                null,
                1,
                trie,
                (t, c) -> reports.add(t + ":" + java.util.Arrays.toString(trie.methods(c))));
        assertThat(reports).containsExactly("7:[0]");
    }

    @Test
    void recorderClosesFramesAnExceptionLeft() {
        ChainTraceRecorder recorder = new ChainTraceRecorder(100);
        recorder.start();
        recorder.enter(0);
        recorder.enter(1);
        recorder.enter(2);
        recorder.exitExceptionally(0); // 2 and 1 were left by an exception not seen
        recorder.enter(3);
        ChainTrace trace = recorder.finish();
        assertThat(events(trace)).containsExactly(0, 1, 2, ~2, ~1, ~0, 3, ~3);
        assertThat(recorder.entries()).isEqualTo(4);
    }

    @Test
    void recorderStopsAtItsBoundAndStaysNested() {
        ChainTraceRecorder recorder = new ChainTraceRecorder(6);
        recorder.start();
        recorder.enter(0);
        recorder.enter(1);
        recorder.exit(1);
        recorder.enter(2); // 0,1,~1 + 2 and the exits of 2 and 0 would make 6: fits
        recorder.exit(2);
        recorder.enter(3); // would need 8
        ChainTrace trace = recorder.finish();
        assertThat(events(trace)).containsExactly(0, 1, ~1, 2, ~2, ~0);
        assertThat(recorder.truncated()).isTrue();
    }

    private static List<Integer> events(ChainTrace trace) {
        List<Integer> events = new ArrayList<>();
        for (int t = 0; t < trace.length(); t++) {
            events.add(trace.event(t));
        }
        return events;
    }
}
