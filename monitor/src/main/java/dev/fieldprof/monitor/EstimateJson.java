package dev.fieldprof.monitor;

import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RankedMethod;
import dev.fieldprof.schemas.StandardErrors;
import java.util.List;
import java.util.Locale;

/** The board as JSON for the web page: a fixed, small shape written by hand (no mapper needed). */
public final class EstimateJson {
    private EstimateJson() {}

    public static String of(EstimateBoard board) {
        StringBuilder out = new StringBuilder("{\"estimates\":[");
        List<EstimateBoard.Entry> entries = board.entries();
        boolean first = true;
        for (EstimateBoard.Entry entry : entries) {
            for (EstimateWindow estimate :
                    new EstimateWindow[] {entry.window(), entry.cumulative()}) {
                if (estimate == null) {
                    continue;
                }
                out.append(first ? "" : ",");
                first = false;
                append(out, estimate);
            }
        }
        return out.append("],\"seen\":").append(board.estimatesSeen()).append('}').toString();
    }

    private static void append(StringBuilder out, EstimateWindow e) {
        out.append("{\"app\":").append(string(e.getAppVersion()));
        out.append(",\"config\":").append(string(e.getConfigId()));
        out.append(",\"cumulative\":").append(e.getCumulative());
        out.append(",\"start\":").append(e.getWindowStartMillis().toEpochMilli());
        out.append(",\"end\":").append(e.getWindowEndMillis().toEpochMilli());
        out.append(",\"reports\":").append(e.getReports());
        out.append(",\"revision\":").append(e.getRevision());
        out.append(",\"k\":").append(e.getK());
        out.append(",\"epsilon\":").append(number(e.getEpsilon()));
        out.append(",\"t\":").append(e.getT());
        out.append(",\"standardError\":").append(number(e.getStandardError()));
        if (e.getCentralEpsilon() > 0) {
            // The shuffled mode only: local-only estimates keep their shape.
            out.append(",\"centralEpsilon\":").append(number(e.getCentralEpsilon()));
            out.append(",\"centralDelta\":").append(number(e.getCentralDelta()));
        }
        out.append(",\"solveMillis\":").append(number(e.getSolve().getMillis()));
        out.append(",\"top\":[");
        List<RankedMethod> top = e.getTop();
        for (int i = 0; i < top.size(); i++) {
            RankedMethod m = top.get(i);
            out.append(i == 0 ? "" : ",");
            out.append("{\"id\":").append(m.getMethodId());
            out.append(",\"signature\":").append(string(m.getSignature()));
            out.append(",\"share\":").append(number(m.getShare()));
            out.append(",\"normalized\":").append(number(m.getNormalized()));
            out.append(",\"standardError\":").append(number(StandardErrors.of(e, m.getMethodId())));
            out.append('}');
        }
        out.append("]}");
    }

    private static String number(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.6g", value) : "null";
    }

    static String string(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>') {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
