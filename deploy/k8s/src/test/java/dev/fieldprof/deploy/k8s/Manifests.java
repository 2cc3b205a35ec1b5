package dev.fieldprof.deploy.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The YAML documents of manifest files, as {@code kubectl apply -f DIR} reads them. */
final class Manifests {
    private static final ObjectMapper YAML = new YAMLMapper();

    private Manifests() {}

    /**
     * Every document of every {@code *.yaml} / {@code *.yml} file directly in {@code directory}, by
     * file name.
     */
    static List<JsonNode> inDirectory(Path directory) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(Manifests::isYaml).sorted().toList()) {
                documents.addAll(read(Files.readString(file)));
            }
        }
        return documents;
    }

    /** The non-empty documents of a YAML text ({@code ---} separated). */
    static List<JsonNode> read(String yaml) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (MappingIterator<JsonNode> iterator = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (iterator.hasNextValue()) {
                JsonNode document = iterator.nextValue();
                if (document != null && !document.isMissingNode() && !document.isNull()) {
                    documents.add(document);
                }
            }
        }
        return documents;
    }

    /** The one document of a stream (a CRD file). */
    static JsonNode readOne(InputStream in) {
        try (in) {
            return YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isYaml(Path file) {
        String name = file.getFileName().toString();
        return Files.isRegularFile(file) && (name.endsWith(".yaml") || name.endsWith(".yml"));
    }
}
