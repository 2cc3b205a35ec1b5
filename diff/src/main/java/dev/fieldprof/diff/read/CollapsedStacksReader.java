package dev.fieldprof.diff.read;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.normalize.InferredApplication;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads collapsed stacks, the format async-profiler writes with {@code -o collapsed} (and
 * FlameGraph's {@code stackcollapse} scripts): one line per distinct stack, frames outermost first
 * separated by {@code ;}, then a space and the count. Class names written with slashes ({@code
 * java/lang/Thread.run}) are turned into dots; blank lines and lines starting with {@code #} are
 * skipped. Frame annotations such as {@code _[j]} are left to the normalizer.
 */
public final class CollapsedStacksReader implements ProfileReader {

    @Override
    public String format() {
        return "collapsed";
    }

    @Override
    public boolean recognizes(Path file, byte[] head) {
        for (byte b : head) {
            if (b == 0) {
                return false; // binary
            }
        }
        return true;
    }

    @Override
    public CallingContextTree read(Path file) throws IOException {
        CallingContextTree tree = new CallingContextTree();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                int space = trimmed.lastIndexOf(' ');
                if (space <= 0) {
                    throw malformed(file, number, "no count after the stack");
                }
                long count;
                try {
                    count = Long.parseLong(trimmed.substring(space + 1));
                } catch (NumberFormatException e) {
                    throw malformed(file, number, "count is not a number");
                }
                if (count < 0) {
                    throw malformed(file, number, "negative count");
                }
                tree.addStack(frames(trimmed.substring(0, space).strip()), count);
            }
        }
        return tree;
    }

    /**
     * Collapsed stacks do not say which thread ran {@code main}: the package most stacks enter
     * first outside the JDK ({@link InferredApplication#fromOutermostFrames}).
     */
    @Override
    public Optional<InferredApplication> inferApplication(Path file, CallingContextTree tree) {
        return InferredApplication.fromOutermostFrames(tree);
    }

    static List<String> frames(String stack) {
        List<String> frames = new ArrayList<>();
        for (String frame : stack.split(";")) {
            if (!frame.isEmpty()) {
                frames.add(dotted(frame));
            }
        }
        return frames;
    }

    /** {@code java/util/HashMap.get} to {@code java.util.HashMap.get}; native frames unchanged. */
    private static String dotted(String frame) {
        if (frame.startsWith("/") || frame.startsWith("[") || frame.indexOf(' ') >= 0) {
            return frame;
        }
        return frame.replace('/', '.');
    }

    private static IOException malformed(Path file, int line, String why) {
        return new IOException(file + ":" + line + ": not a collapsed stack line (" + why + ")");
    }
}
