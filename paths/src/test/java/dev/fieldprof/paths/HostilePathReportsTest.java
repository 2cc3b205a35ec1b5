package dev.fieldprof.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Path reports that claim more than a decoder should do for them: a count of events or a stack
 * depth that the few coded bytes would make real (the range coder reads zeros past the end, and a
 * run of one frame's likeliest event costs about 3·10⁻⁷ bits each). Before the limits, the report
 * of 2²⁸ nested calls below grew the decoder's frame arrays to 2 GB (version 3) or 3 GB (version 1)
 * and ended in OutOfMemoryError under -Xmx2g.
 */
class HostilePathReportsTest {
    private static final long CLAIM = 1L << 28;
    private static final EdgeModel ONE_METHOD =
            EdgeModel.uniform(ArrayBranchTable.builder(2).branch(1, 0, 2).build());

    @Test
    void twoToThe28NestedCallsInAFewBytesAreRefusedByTheEventLimit() {
        List<Integer> lengths = new ArrayList<>();
        for (Function<EdgeModel, PathReportEncoder> encoder : encoders()) {
            byte[] poison = nestedCalls(encoder.apply(ONE_METHOD), CLAIM);
            lengths.add(poison.length);

            assertThatThrownBy(() -> new PathDecoder(ONE_METHOD).decode(poison, new Counting()))
                    .isInstanceOf(InvalidPathReportException.class)
                    .hasMessage("report claims 268435456 events, limit 1048576");
        }
        // Version 3, then version 1.
        assertThat(lengths).containsExactly(12, 11);
    }

    @Test
    void aStackDeeperThanTheDepthLimitIsRefusedWhateverTheEventLimit() {
        List<Integer> lengths = new ArrayList<>();
        for (Function<EdgeModel, PathReportEncoder> encoder : encoders()) {
            // Real nested calls, one more than the depth limit allows, coded in a few bytes.
            PathReportEncoder deep = encoder.apply(ONE_METHOD);
            for (int i = 0; i <= PathDecoder.MAX_DEPTH; i++) {
                deep.enterMethod(0);
            }
            byte[] poison = deep.finishReport();
            lengths.add(poison.length);
            assertThatThrownBy(() -> new PathDecoder(ONE_METHOD).decode(poison, new Counting()))
                    .isInstanceOf(InvalidPathReportException.class)
                    .hasMessage("report claims 1048577 events, limit 1048576");
            PathDecoder generous = new PathDecoder(ONE_METHOD, CLAIM);
            Counting sink = new Counting();

            assertThatThrownBy(() -> generous.decode(poison, sink))
                    .isInstanceOf(InvalidPathReportException.class)
                    .hasMessage("stack deeper than 1048576 frames at event 1048575");
            assertThat(sink.enters).isEqualTo(PathDecoder.MAX_DEPTH - 1);

            // The decoder gave back its frames and still decodes an ordinary report exactly.
            PathReportEncoder ordinary = encoder.apply(ONE_METHOD);
            PathRecording want = new PathRecording();
            ordinary.record(want);
            ordinary.enterMethod(0);
            ordinary.enterMethod(1);
            ordinary.branch(0, 1);
            ordinary.exitMethod(1);
            ordinary.exitMethod(0);
            PathRecording got = new PathRecording();
            try {
                generous.decode(ordinary.finishReport(), got);
            } catch (InvalidPathReportException e) {
                throw new AssertionError(e);
            }
            assertThat(got).isEqualTo(want);
        }
        // 2²⁰ + 1 nested calls: 10 bytes in version 3, 46 in version 1.
        assertThat(lengths).containsExactly(10, 46);
    }

    @Test
    void aVersion1HeaderOpeningMoreFramesThanItsBytesHoldIsRefused() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(1); // format 1
        varLong(out, 0); // model version
        varLong(out, 1); // events
        varLong(out, 1_000_000L * 4); // 10⁶ open frames (times PACK), root calls 0
        byte[] header = out.toByteArray();

        assertThatThrownBy(() -> PathDecoder.readHeader(header))
                .isInstanceOf(InvalidPathReportException.class)
                .hasMessageStartingWith("malformed header: ");
    }

    /**
     * Seeded fuzzing of both formats: random valid reports, each truncated, given a huge event
     * count, frame count or position, or bit-flipped, decode or throw InvalidPathReportException.
     */
    @Test
    void truncatedOversizedAndFlippedReportsDecodeOrAreRefused() {
        EdgeModel model =
                EdgeModel.uniform(
                        ArrayBranchTable.builder(4)
                                .branch(0, 1, 2)
                                .branch(1, 0, 3)
                                .branch(2, 4, 2)
                                .build());
        SplittableRandom random = new SplittableRandom(20261127L);
        List<String> unexpected = new ArrayList<>();
        int inputs = 0;
        int refused = 0;
        for (Function<EdgeModel, PathReportEncoder> encoder : encoders()) {
            for (int r = 0; r < 40; r++) {
                byte[] valid = randomReport(encoder.apply(model), random);
                for (int v = 0; v < 50; v++) {
                    byte[] variant = mutate(valid, random, v % 4);
                    inputs++;
                    try {
                        new PathDecoder(model).decode(variant, new Counting());
                    } catch (InvalidPathReportException e) {
                        refused++;
                    } catch (Throwable t) {
                        unexpected.add(Arrays.toString(variant) + ": " + t);
                    }
                }
            }
        }
        assertThat(unexpected).isEmpty();
        assertThat(inputs).isEqualTo(2 * 40 * 50);
        assertThat(refused).isGreaterThan(inputs / 2);
    }

    private static List<Function<EdgeModel, PathReportEncoder>> encoders() {
        return List.of(CallSitePathEncoder::new, PathEncoder::new);
    }

    /**
     * A report of 4096 nested calls of method 0 whose header's event count is raised to {@code
     * claimed}: what the encoder itself writes for 2²⁸ nested calls is as short, but coding them
     * needs GBs of encoder frames.
     */
    static byte[] nestedCalls(PathReportEncoder encoder, long claimed) {
        for (int i = 0; i < 4096; i++) {
            encoder.enterMethod(0);
        }
        byte[] real = encoder.finishReport();
        return withEventCount(real, claimed);
    }

    private static byte[] withEventCount(byte[] report, long events) {
        // Both formats: format byte, model version, event count (unsigned LEB128), then the rest.
        int pos = 1;
        pos = skipVarLong(report, pos);
        int countEnd = skipVarLong(report, pos);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(report, 0, pos);
        varLong(out, events);
        out.write(report, countEnd, report.length - countEnd);
        return out.toByteArray();
    }

    private static int skipVarLong(byte[] bytes, int pos) {
        while ((bytes[pos] & 0x80) != 0) {
            pos++;
        }
        return pos + 1;
    }

    private static void varLong(ByteArrayOutputStream out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    private static byte[] randomReport(PathReportEncoder encoder, SplittableRandom random) {
        int depth = 0;
        int[] stack = new int[64];
        int events = 1 + random.nextInt(300);
        for (int i = 0; i < events; i++) {
            int choice = random.nextInt(3);
            if (choice == 0 && depth < stack.length) {
                int m = random.nextInt(4);
                encoder.enterMethod(m);
                stack[depth++] = m;
            } else if (choice == 1 && depth > 0) {
                int m = stack[depth - 1];
                if (m == 0) {
                    encoder.branch(1, random.nextInt(2));
                } else if (m == 1) {
                    encoder.branch(0, random.nextInt(3));
                } else if (m == 2) {
                    encoder.branch(4, random.nextInt(2));
                }
            } else if (depth > 0) {
                int m = stack[--depth];
                if (random.nextBoolean()) {
                    encoder.exitMethod(m);
                } else {
                    encoder.exitExceptionally(m);
                }
            }
        }
        return encoder.finishReport();
    }

    private static byte[] mutate(byte[] valid, SplittableRandom random, int kind) {
        switch (kind) {
            case 0:
                return Arrays.copyOf(valid, random.nextInt(valid.length));
            case 1:
                return withEventCount(valid, random.nextLong(1L << 40));
            case 2:
                {
                    // A huge varint written over a random header or stream position.
                    int at = 1 + random.nextInt(Math.max(1, valid.length - 1));
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    out.write(valid, 0, at);
                    varLong(out, random.nextLong(Long.MAX_VALUE));
                    int skip = Math.min(valid.length - at, random.nextInt(3));
                    out.write(valid, at + skip, valid.length - at - skip);
                    return out.toByteArray();
                }
            default:
                {
                    byte[] flipped = valid.clone();
                    int flips = 1 + random.nextInt(3);
                    for (int i = 0; i < flips; i++) {
                        int at = random.nextInt(flipped.length);
                        flipped[at] ^= (byte) (1 << random.nextInt(8));
                    }
                    return flipped;
                }
        }
    }

    /** Counts events without keeping them. */
    private static final class Counting implements PathEventSink {
        long enters;

        @Override
        public void enter(int methodId) {
            enters++;
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex) {}

        @Override
        public void exit(int methodId, boolean exceptional) {}
    }
}
