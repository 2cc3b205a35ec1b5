package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.paths.EdgeCounter;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.EdgeModelRecords;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathRecording;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.RecordCodec;
import java.time.Instant;
import java.util.List;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;

/** What the path job's operator harness tests share: reports, models, counts, dead letters. */
final class PathJobHarnesses {
    static final String APP = PathModelJobITCase.APP;
    static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);
    static final RecordCodec<dev.fieldprof.schemas.EdgeModel> MODELS =
            RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class);

    private PathJobHarnesses() {}

    static PathReportEnvelope report(
            String id, EdgeModel codedWith, String namedWriter, long seed, long offset, long ts) {
        return new PathReportEnvelope(
                APP,
                id,
                "device-" + id,
                codedWith.version(),
                namedWriter,
                PathModelJobITCase.codedRun(codedWith, seed),
                new RawRecord("paths", 0, offset, ts, null, new byte[] {1}));
    }

    static EdgeModel model(long version, String writer, int skew) {
        return EdgeModel.builder(EdgeModel.uniform(PathModelJobITCase.TABLE))
                .version(version)
                .writer(writer)
                .frequencies(0, 0, new int[] {skew, 1})
                .build();
    }

    static PathSideInput published(EdgeModel model) {
        return PathSideInput.model(
                APP, MODELS.encode(EdgeModelRecords.toRecord(model, APP, Instant.EPOCH, 1)));
    }

    static PathSideInput table() {
        return PathSideInput.branches(APP, PathModelJobITCase.BRANCHES);
    }

    /** The edge counts of the reports, as the job must compute them. */
    static EdgeCounter counts(EdgeModel model, List<PathReportEnvelope> reports) throws Exception {
        EdgeCounter counter = new EdgeCounter(PathModelJobITCase.TABLE);
        for (PathReportEnvelope r : reports) {
            PathRecording recording = new PathRecording();
            counter.begin(new PathDecoder(model).decode(r.coded, recording));
            recording.replay(counter);
        }
        return counter;
    }

    static List<String> letters(KeyedBroadcastOperatorTestHarness<?, ?, ?, ?> harness) {
        var side = harness.getSideOutput(PathDeadLetters.TAG);
        if (side == null) {
            return List.of();
        }
        return side.stream()
                .map(r -> LETTERS.decode(r.getValue().value))
                .map(l -> l.getOffset() + " " + l.getReasonCode() + " " + l.getReason())
                .toList();
    }
}
