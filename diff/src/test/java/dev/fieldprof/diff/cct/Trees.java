package dev.fieldprof.diff.cct;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Small trees for tests, written as text: {@code "a(b c(d))"} — a calls b and c, c calls d. */
public final class Trees {
    private Trees() {}

    /**
     * Parses {@code name(children...)} forests below the root; each node gets exclusive cost 1
     * unless written {@code name:cost}.
     */
    public static CallingContextTree parse(String text) {
        CallingContextTree tree = new CallingContextTree();
        Parser parser = new Parser(text, tree);
        parser.forest(new ArrayList<>());
        if (parser.pos != text.length()) {
            throw new IllegalArgumentException("trailing text at " + parser.pos + ": " + text);
        }
        return tree;
    }

    /**
     * A random tree of at most {@code maxNodes} nodes below the root, labels from {@code labels}.
     */
    public static CallingContextTree random(
            Random random, int maxNodes, int maxDepth, String labels) {
        CallingContextTree tree = new CallingContextTree();
        int attempts = 0;
        while (tree.size() - 1 < maxNodes && attempts++ < maxNodes * 4) {
            int depth = 1 + random.nextInt(maxDepth);
            List<String> path = new ArrayList<>();
            for (int i = 0; i < depth; i++) {
                path.add(String.valueOf(labels.charAt(random.nextInt(labels.length()))));
            }
            if (tree.find(path) == null && grows(tree, path) + tree.size() - 1 > maxNodes) {
                continue;
            }
            tree.addStack(path, 1 + random.nextInt(5));
        }
        return tree;
    }

    private static int grows(CallingContextTree tree, List<String> path) {
        CctNode node = tree.root();
        int i = 0;
        while (i < path.size() && node.child(path.get(i)) != null) {
            node = node.child(path.get(i));
            i++;
        }
        return path.size() - i;
    }

    private static final class Parser {
        private final String text;
        private final CallingContextTree tree;
        private int pos;

        Parser(String text, CallingContextTree tree) {
            this.text = text;
            this.tree = tree;
        }

        void forest(List<String> path) {
            skipSpaces();
            while (pos < text.length() && text.charAt(pos) != ')') {
                node(path);
                skipSpaces();
            }
        }

        private void node(List<String> path) {
            int start = pos;
            while (pos < text.length() && "() ".indexOf(text.charAt(pos)) < 0) {
                pos++;
            }
            String token = text.substring(start, pos);
            long cost = 1;
            int colon = token.lastIndexOf(':');
            if (colon > 0 && token.substring(colon + 1).chars().allMatch(Character::isDigit)) {
                cost = Long.parseLong(token.substring(colon + 1));
                token = token.substring(0, colon);
            }
            path.add(token);
            tree.addStack(path, cost);
            if (pos < text.length() && text.charAt(pos) == '(') {
                pos++;
                forest(path);
                if (pos >= text.length() || text.charAt(pos) != ')') {
                    throw new IllegalArgumentException("missing ) in " + text);
                }
                pos++;
            }
            path.remove(path.size() - 1);
        }

        private void skipSpaces() {
            while (pos < text.length() && text.charAt(pos) == ' ') {
                pos++;
            }
        }
    }
}
