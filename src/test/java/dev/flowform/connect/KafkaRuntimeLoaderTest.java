package dev.flowform.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaRuntimeLoaderTest {
    @TempDir
    Path tmp;

    @Test
    void onTheTestClassPathKafkaComesFromTheCurrentLoader() {
        ClassLoader own = KafkaRuntimeLoader.class.getClassLoader();
        assertThat(KafkaRuntimeLoader.kafkaClassLoader()).isSameAs(own).isSameAs(KafkaRuntimeLoader.kafkaClassLoader());
    }

    @Test
    void envVariableNamesTheFolder() {
        Path dir = KafkaRuntimeLoader.kafkaLibDir(Map.of(KafkaRuntimeLoader.ENV_KAFKA_LIB, " /opt/kafka-libs "),
                Optional.of(Path.of("/somewhere/flowform.jar")));
        assertThat(dir).isEqualTo(Path.of("/opt/kafka-libs"));
    }

    @Test
    void withoutEnvVariableTheFolderIsKafkaBesideTheJar() {
        assertThat(KafkaRuntimeLoader.kafkaLibDir(Map.of(KafkaRuntimeLoader.ENV_KAFKA_LIB, "  "),
                Optional.of(Path.of("/p/target/flowform.jar")))).isEqualTo(Path.of("/p/target/kafka"));
        // run from target/classes (an IDE without Kafka on the class path): still target/kafka
        assertThat(KafkaRuntimeLoader.kafkaLibDir(Map.of(), Optional.of(Path.of("/p/target/classes"))))
                .isEqualTo(Path.of("/p/target/kafka"));
    }

    @Test
    void unknownLocationWithoutEnvVariableFailsClearly() {
        assertThatThrownBy(() -> KafkaRuntimeLoader.kafkaLibDir(Map.of(), Optional.empty()))
                .isInstanceOf(ConnectRuntimeException.class)
                .hasMessageContaining("real Kafka needs the Kafka libraries")
                .hasMessageContaining(KafkaRuntimeLoader.ENV_KAFKA_LIB);
    }

    @Test
    void emptyFolderFailsWithWhereItLookedAndHowToFixIt() {
        Path dir = KafkaRuntimeLoader.kafkaLibDir(Map.of(KafkaRuntimeLoader.ENV_KAFKA_LIB, tmp.toString()),
                Optional.empty());
        assertThatThrownBy(() -> KafkaRuntimeLoader.openFolder(dir, getClass().getClassLoader()))
                .isInstanceOf(ConnectRuntimeException.class)
                .hasMessageContaining("real Kafka needs the Kafka libraries")
                .hasMessageContaining("looked in " + tmp)
                .hasMessageContaining("`mvn package` puts them in target/kafka/")
                .hasMessageContaining(KafkaRuntimeLoader.ENV_KAFKA_LIB);
    }

    @Test
    void missingFolderFailsTheSameWay() {
        Path dir = tmp.resolve("no-such-folder");
        assertThatThrownBy(() -> KafkaRuntimeLoader.openFolder(dir, getClass().getClassLoader()))
                .isInstanceOf(ConnectRuntimeException.class)
                .hasMessageContaining("looked in " + dir);
    }

    @Test
    void folderOfUnrelatedJarsIsNotTakenForKafka() throws IOException {
        try (OutputStream out = Files.newOutputStream(tmp.resolve("other.jar"));
                JarOutputStream jar = new JarOutputStream(out)) {
            jar.putNextEntry(new ZipEntry("readme.txt"));
            jar.closeEntry();
        }
        // parent = platform loader, so the Kafka on the test class path cannot answer for the folder
        assertThatThrownBy(() -> KafkaRuntimeLoader.openFolder(tmp, ClassLoader.getPlatformClassLoader()))
                .isInstanceOf(ConnectRuntimeException.class)
                .hasMessageContaining("it has jars, but not " + KafkaRuntimeLoader.KAFKA_PROBE_CLASS);
    }

    @Test
    void newInstanceConstructsThroughTheLoader() {
        List<?> list = KafkaRuntimeLoader.newInstance(Sized.class.getName(), List.class, new Class<?>[] {int.class}, 3);
        assertThat(list).hasSize(3);
    }

    @Test
    void newInstanceRethrowsWhatTheConstructorThrew() {
        assertThatThrownBy(() -> KafkaRuntimeLoader.newInstance(Throwing.class.getName(), Object.class,
                new Class<?>[] {boolean.class}, false))
                .isExactlyInstanceOf(IllegalStateException.class).hasMessage("unchecked");
        assertThatThrownBy(() -> KafkaRuntimeLoader.newInstance(Throwing.class.getName(), Object.class,
                new Class<?>[] {boolean.class}, true))
                .isInstanceOf(ConnectRuntimeException.class)
                .hasCauseExactlyInstanceOf(IOException.class);
    }

    @Test
    void newInstanceReportsMissingClassAndWrongType() {
        assertThatThrownBy(() -> KafkaRuntimeLoader.newInstance("dev.flowform.kafka.NoSuchRuntime", ConnectRuntime.class,
                new Class<?>[0])).isInstanceOf(ConnectRuntimeException.class)
                .hasMessageContaining("cannot load dev.flowform.kafka.NoSuchRuntime");
        assertThatThrownBy(() -> KafkaRuntimeLoader.newInstance(Sized.class.getName(), ConnectRuntime.class,
                new Class<?>[] {int.class}, 1)).isInstanceOf(ConnectRuntimeException.class)
                .hasMessageContaining("is not a " + ConnectRuntime.class.getName());
    }

    @Test
    void newInstanceRunsTheConstructorWithTheKafkaLoaderAsContextLoader() throws IOException {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader kafka = new URLClassLoader(new URL[0], getClass().getClassLoader())) {
            ContextCapturing c = KafkaRuntimeLoader.newInstance(kafka, ContextCapturing.class.getName(),
                    ContextCapturing.class, new Class<?>[0]);
            assertThat(c.context).isSameAs(kafka);
        }
        assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);
    }

    /** Remembers the context class loader it was constructed under. */
    public static final class ContextCapturing {
        final ClassLoader context = Thread.currentThread().getContextClassLoader();
    }

    /** A list of {@code n} nulls. */
    public static final class Sized extends java.util.ArrayList<Object> {
        private static final long serialVersionUID = 1L;

        public Sized(int n) {
            for (int i = 0; i < n; i++) {
                add(null);
            }
        }
    }

    /** Throws from its constructor. */
    public static final class Throwing {
        public Throwing(boolean checked) throws IOException {
            if (checked) {
                throw new IOException("checked");
            }
            throw new IllegalStateException("unchecked");
        }
    }
}
