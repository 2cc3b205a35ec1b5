package dev.fieldprof.diff.report;

import java.util.regex.Pattern;

/**
 * Makes a name read from a record or a profile safe to print on a terminal. Such names (method
 * signatures, app versions, configurations, call paths) come from devices and files anyone may have
 * written; printed as they are, an escape sequence in one could recolour, move the cursor, retitle
 * the window or rewrite lines already printed, and a bidirectional override could show a name other
 * than the one read.
 */
public final class TerminalText {
    /**
     * An ANSI escape sequence (ESC or the 8-bit CSI, then its parameters and final byte; OSC and
     * other strings up to BEL or ST; any other ESC with the character after it), then any single C0
     * control, DEL, C1 control, or bidirectional embedding, override or isolate (U+202A–U+202E,
     * U+2066–U+2069).
     */
    private static final Pattern UNSAFE =
            Pattern.compile(
                    "(?:\\u001b\\[|\\u009b)[0-9:;<=>?]*[ -/]*[@-~]?"
                            + "|(?:\\u001b[\\]PX^_]|[\\u0090\\u009d\\u0098\\u009e\\u009f])"
                            + "[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)?"
                            + "|\\u001b[ -~]?"
                            + "|[\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]");

    private TerminalText() {}

    /**
     * The name with every escape sequence and every control or bidirectional formatting character
     * removed; null stays null. Printable text, including any other script, is kept as it is.
     */
    public static String inert(String name) {
        if (name == null) {
            return null;
        }
        return UNSAFE.matcher(name).replaceAll("");
    }
}
