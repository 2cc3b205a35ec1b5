package dev.fieldprof.analysis.soot;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.bytecode.jar.BytecodeScan;
import dev.fieldprof.bytecode.jar.JarContents;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Prints, per jar, the first 16 hex digits of the SHA-256 of everything {@link SootProgramLoader}
 * returns (each method's facts as one line, by signature, then the skipped methods, missing classes
 * and serialization constructors) and the {@code soot.facts} phase's seconds: a change to the
 * loader that should leave its facts alone is checked by running this with the classes before and
 * after it. With an output directory it also writes the lines, for a diff. Run from the module
 * directory with the test classpath: {@code java -cp ... dev.fieldprof.analysis.soot.FactsDigest
 * [--out DIR] [--application] name=file.jar ...} (the jars are loaded without dependencies, as
 * libraries unless {@code --application}).
 */
public final class FactsDigest {

    private FactsDigest() {}

    public static void main(String[] args) throws Exception {
        Path out = null;
        boolean library = true;
        for (int i = 0; i < args.length; i++) {
            String argument = args[i];
            if (argument.equals("--out")) {
                out = Path.of(args[++i]);
                Files.createDirectories(out);
                continue;
            }
            if (argument.equals("--application")) {
                library = false;
                continue;
            }
            int equals = argument.indexOf('=');
            String name = argument.substring(0, equals);
            Path jar = Path.of(argument.substring(equals + 1));
            ProgramFacts facts = load(jar, name, library);
            List<String> lines = lines(facts);
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            for (String line : lines) {
                sha256.update((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
            if (out != null) {
                write(out.resolve(name + (library ? "-library" : "-application") + ".txt"), lines);
            }
            var phase =
                    facts.phases().stream()
                            .filter(p -> p.name().equals("soot.facts"))
                            .findFirst()
                            .orElseThrow();
            System.out.printf(
                    Locale.ROOT,
                    "%s %s methods=%d facts-sha256=%s soot.facts wall=%.3f s cpu=%.3f s%n",
                    name,
                    library ? "library" : "application",
                    facts.methods().size(),
                    HexFormat.of().formatHex(sha256.digest()).substring(0, 16),
                    phase.wallSeconds(),
                    phase.cpuSeconds());
        }
    }

    private static ProgramFacts load(Path jar, String name, boolean library) throws IOException {
        AnalysisRequest request = AnalysisRequest.of(jar, name + ":digest");
        BytecodeScan scan = BytecodeScan.of(JarContents.read(jar), request.appPackages());
        return SootProgramLoader.load(
                new SootProgramLoader.Request(
                        jar,
                        List.of(),
                        scan.applicationClasses(),
                        scan.lambdaInterfaces(),
                        scan.sealedTypes(),
                        library,
                        scan.usesProxies()));
    }

    /** One line per method, by signature, then the loader's other results. */
    static List<String> lines(ProgramFacts facts) {
        List<String> lines = new java.util.ArrayList<>();
        for (String signature : new TreeSet<>(facts.methods().keySet())) {
            lines.add(line(facts.methods().get(signature)));
        }
        lines.add("skipped " + new TreeMap<>(facts.skipped()));
        lines.add("missing " + new TreeSet<>(facts.missingClasses()));
        lines.add("serialization " + new TreeSet<>(facts.serializationConstructors()));
        return lines;
    }

    private static String line(MethodFacts method) {
        StringBuilder out =
                new StringBuilder(method.signature())
                        .append('|')
                        .append(method.access())
                        .append('|')
                        .append(method.overridesNonApplication())
                        .append('|')
                        .append(method.overriddenApplicationMethods())
                        .append('|')
                        .append(method.statements());
        for (CallSiteFacts site : method.callSites()) {
            out.append("|site ")
                    .append(site.statement())
                    .append(' ')
                    .append(site.kind())
                    .append(' ')
                    .append(site.declaredSignature())
                    .append(' ')
                    .append(site.targets())
                    .append(' ')
                    .append(site.targetsComplete())
                    .append(' ')
                    .append(site.guaranteesEntry());
        }
        StatementFacts code = method.code();
        return out.append("|successors ")
                .append(Arrays.deepToString(code.normalSuccessors()))
                .append("|handlers ")
                .append(Arrays.deepToString(code.handlers()))
                .append("|caught ")
                .append(Arrays.toString(code.caughtForSure()))
                .append("|intrinsic ")
                .append(Arrays.toString(code.intrinsicThrow()))
                .append("|returns ")
                .append(Arrays.toString(code.returns()))
                .append("|exits ")
                .append(Arrays.toString(code.explicitExits()))
                .append("|calls ")
                .append(Arrays.toString(code.callSite()))
                .toString();
    }

    private static void write(Path file, List<String> lines) throws IOException {
        try (Writer writer = Files.newBufferedWriter(file)) {
            for (String line : lines) {
                writer.write(line);
                writer.write('\n');
            }
        }
    }
}
