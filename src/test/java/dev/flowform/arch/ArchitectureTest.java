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
 * Keeps the core pure (docs/architecture.md): the planning packages import no edge library (fabric8,
 * JDBC, sockets, picocli, the file system) and neither print, read the clock nor sleep.
 */
class ArchitectureTest {

    private static final Pattern EDGE_IMPORT = Pattern.compile(
            "^import (static )?(io\\.fabric8|java\\.sql|javax\\.sql|org\\.h2|org\\.flywaydb|picocli|java\\.net|java\\.nio\\.file|java\\.io\\.File)\\b.*",
            Pattern.MULTILINE);
    private static final Pattern SIDE_EFFECT = Pattern.compile("System\\.(out|err|in)|Instant\\.now\\(\\)|Thread\\.sleep|"
            + "LocalDateTime\\.now\\(\\)|System\\.currentTimeMillis|System\\.getenv|new Random\\(");

    @ParameterizedTest
    @ValueSource(strings = {"diag", "model", "plan", "render"})
    void core_packages_stay_pure(String pkg) throws IOException {
        List<String> offences = new ArrayList<>();
        Path dir = Path.of("src/main/java/dev/flowform", pkg);
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String text = Files.readString(f);
                EDGE_IMPORT.matcher(text).results().forEach(m -> offences.add(f + ": " + m.group()));
                SIDE_EFFECT.matcher(text).results().forEach(m -> offences.add(f + ": " + m.group()));
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

    @org.junit.jupiter.api.Test
    void only_the_config_loader_reads_files_in_the_config_package() throws IOException {
        Pattern fileAccess = Pattern.compile("java\\.nio\\.file\\.Files|\\bFiles\\.|java\\.io\\.File|FileInputStream|FileReader"
                + "|RandomAccessFile|FileChannel");
        List<String> offences = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/dev/flowform/config"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                if (f.getFileName().toString().equals("ConfigLoader.java")) {
                    continue;
                }
                fileAccess.matcher(Files.readString(f)).results().forEach(m -> offences.add(f + ": " + m.group()));
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
