package dev.flowform.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The source-level complement of {@link CompiledArchitectureTest} (docs/architecture.md, "Layers"): javac copies
 * compile-time constants ({@code static final} strings and numbers) into the classes that use them, so a core class
 * that uses only a constant of an edge library, of an edge package or of Kafka shows no dependency in its bytecode.
 * These checks read the {@code import} lines (and, for Kafka, any qualified name) of the sources instead. Calls,
 * field accesses and types, which the bytecode does show, are checked by the ArchUnit rules.
 */
class ArchitectureTest {

    private static final Pattern EDGE_IMPORT = Pattern.compile(
            "^import (static )?(io\\.fabric8|java\\.sql|javax\\.sql|org\\.h2|org\\.flywaydb|picocli|java\\.net|java\\.nio\\.file|java\\.io\\.File)\\b.*",
            Pattern.MULTILINE);

    @ParameterizedTest
    @ValueSource(strings = {"diag", "model", "plan", "render"})
    void core_packages_import_no_edge_library(String pkg) throws IOException {
        List<String> offences = new ArrayList<>();
        Path dir = Path.of("src/main/java/dev/flowform", pkg);
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String text = Files.readString(f);
                EDGE_IMPORT.matcher(text).results().forEach(m -> offences.add(f + ": " + m.group()));
            }
        }
        assertThat(offences).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"diag", "model", "plan", "render", "config"})
    void core_packages_do_not_depend_on_edge_packages(String pkg) throws IOException {
        Pattern edge = Pattern.compile("^import dev\\.flowform\\.(cli|apply|live|state|sim)\\..*", Pattern.MULTILINE);
        List<String> offences = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/dev/flowform", pkg))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                edge.matcher(Files.readString(f)).results().forEach(m -> offences.add(f + ": " + m.group()));
            }
        }
        assertThat(offences).isEmpty();
    }

    /**
     * Apache Kafka is not in flowform.jar: it is loaded from target/kafka/ by KafkaRuntimeLoader, together with
     * the dev.flowform.kafka classes. Code elsewhere that named a Kafka class, or a dev.flowform.kafka class
     * directly, would compile and pass the tests (Kafka is on the test class path) and then fail in the product.
     */
    @org.junit.jupiter.api.Test
    void only_the_kafka_package_uses_kafka_and_nothing_links_to_it() throws IOException {
        Pattern kafka = Pattern.compile("(?<![\"\\w.])org\\.apache\\.kafka\\.|^import (static )?dev\\.flowform\\.kafka\\.", Pattern.MULTILINE);
        List<String> offences = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/dev/flowform"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.startsWith(Path.of("src/main/java/dev/flowform/kafka"))).toList()) {
                kafka.matcher(Files.readString(f)).results().forEach(m -> offences.add(f + ": " + m.group()));
            }
        }
        assertThat(offences).isEmpty();
    }
}
