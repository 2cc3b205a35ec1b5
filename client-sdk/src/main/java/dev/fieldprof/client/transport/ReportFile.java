package dev.fieldprof.client.transport;

import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The local report file format: the header {@code FPRF} + format version 1, then one frame per
 * report: a 4-byte big-endian length and the report's {@link RecordCodec} bytes (single-object Avro
 * with the schema fingerprint, so old reports stay decodable). A frame cut short by a crash is
 * ignored when reading.
 */
public final class ReportFile {
    static final int MAGIC = 0x46505246; // "FPRF"
    static final int VERSION = 1;
    static final int MAX_FRAME = 64 << 20;
    private static final RecordCodec<FrequencyReport> CODEC = RecordCodec.of(FrequencyReport.class);

    private ReportFile() {}

    static byte[] header() {
        return new byte[] {'F', 'P', 'R', 'F', 0, 0, 0, VERSION};
    }

    static byte[] frame(byte[] encoded) {
        byte[] frame = new byte[4 + encoded.length];
        int n = encoded.length;
        frame[0] = (byte) (n >>> 24);
        frame[1] = (byte) (n >>> 16);
        frame[2] = (byte) (n >>> 8);
        frame[3] = (byte) n;
        System.arraycopy(encoded, 0, frame, 4, n);
        return frame;
    }

    static byte[] encode(FrequencyReport report) {
        return CODEC.encode(report);
    }

    static FrequencyReport decode(byte[] bytes) {
        return CODEC.decode(bytes);
    }

    /** Reads every complete report of a report file, in order. */
    public static List<FrequencyReport> readAll(Path file) throws IOException {
        List<FrequencyReport> reports = new ArrayList<>();
        try (InputStream raw = Files.newInputStream(file);
                DataInputStream in = new DataInputStream(new BufferedInputStream(raw))) {
            int magic;
            try {
                magic = in.readInt();
            } catch (EOFException e) {
                return reports;
            }
            if (magic != MAGIC) {
                throw new IOException(file + " is not a fieldprof report file (bad magic)");
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new IOException(file + ": unsupported report file version " + version);
            }
            while (true) {
                int length;
                try {
                    length = in.readInt();
                } catch (EOFException e) {
                    break;
                }
                if (length < 0 || length > MAX_FRAME) {
                    throw new IOException(file + ": corrupt frame length " + length);
                }
                byte[] bytes = new byte[length];
                try {
                    in.readFully(bytes);
                } catch (EOFException e) {
                    break; // torn last frame from a crash mid-append
                }
                reports.add(decode(bytes));
            }
        }
        return reports;
    }
}
