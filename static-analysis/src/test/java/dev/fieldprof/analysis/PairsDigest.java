package dev.fieldprof.analysis;

import dev.fieldprof.analysis.soundness.SoundnessCheck;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.ProgramModel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prints, per program, |V|, the number of order pairs and the first 16 hex digits of the SHA-256 of
 * its pairs as sorted lines {@code rule left-signature right-signature}: a change to the analysis
 * that should leave the pairs alone is checked by running this before and after it. Without
 * arguments it analyses the commons-lang3, gson and guava jars of the test classpath (each a
 * library, as {@code fieldprof analyze} judges them); an argument {@code name=file.model} digests a
 * model written by {@code fieldprof analyze --out}. Run from the module directory with the test
 * classpath: {@code java -cp ... dev.fieldprof.analysis.PairsDigest [name=file.model ...]}.
 */
public final class PairsDigest {

    private PairsDigest() {}

    public static void main(String[] args) throws Exception {
        Map<String, ProgramModel> models = new TreeMap<>();
        if (args.length == 0) {
            Map<String, String> jars = new TreeMap<>();
            jars.put("commons-lang3:3", "org.apache.commons.lang3.StringUtils");
            jars.put("gson:2", "com.google.gson.Gson");
            jars.put("guava:33", "com.google.common.collect.ImmutableList");
            for (Map.Entry<String, String> jar : jars.entrySet()) {
                Path path = SoundnessCheck.jarOf(jar.getValue());
                models.put(
                        jar.getKey(),
                        ProgramAnalyzer.analyze(AnalysisRequest.of(path, jar.getKey())).model());
            }
        }
        for (String argument : args) {
            int equals = argument.indexOf('=');
            models.put(
                    argument.substring(0, equals),
                    ProgramModels.read(Path.of(argument.substring(equals + 1))));
        }
        models.forEach(
                (name, model) ->
                        System.out.println(
                                name
                                        + " |V|="
                                        + model.getMethods().size()
                                        + " pairs="
                                        + model.getPairs().size()
                                        + " sha256="
                                        + digest(model)));
    }

    /** The first 16 hex digits of the SHA-256 of the sorted pair lines, one per line. */
    static String digest(ProgramModel model) {
        Map<Integer, String> signatures = new TreeMap<>();
        for (MethodInfo method : model.getMethods()) {
            signatures.put(method.getId(), method.getSignature().toString());
        }
        List<String> lines = new ArrayList<>();
        for (OrderPair pair : model.getPairs()) {
            lines.add(
                    pair.getRule()
                            + " "
                            + signatures.get(pair.getLeft())
                            + " "
                            + signatures.get(pair.getRight()));
        }
        lines.sort(null);
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            for (String line : lines) {
                sha256.update((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(sha256.digest()).substring(0, 16);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from this JVM", e);
        }
    }
}
