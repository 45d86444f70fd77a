package dev.flowform.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks what {@code mvn package} built (run by failsafe after the package phase): Kafka stays out of
 * {@code flowform.jar}, {@code target/kafka/} holds it, and the jar finds that folder on its own.
 */
class KafkaPackagingIT {
    /** Set by the failsafe configuration in pom.xml; absent when surefire picks this class up (-Dtest=...). */
    private static final String BUILD_DIR = System.getProperty("flowform.build.dir");
    private static final Path TARGET = Path.of(BUILD_DIR == null ? "target" : BUILD_DIR);
    private static final Path JAR = TARGET.resolve("flowform.jar");
    private static final Path KAFKA = TARGET.resolve("kafka");

    private static void assumePackaged() {
        // under surefire (test phase) the jars in target/ are from an earlier build, if any: nothing to check
        assumeTrue(BUILD_DIR != null, "runs under failsafe, after the package phase");
        assumeTrue(Files.isRegularFile(JAR) && Files.isDirectory(KAFKA), "needs target/flowform.jar and target/kafka/");
    }

    @Test
    void mainJarHoldsNoKafka() throws IOException {
        assumePackaged();
        try (JarFile jar = new JarFile(JAR.toFile())) {
            List<String> names = jar.stream().map(ZipEntry::getName).toList();
            assertThat(names).contains("dev/flowform/connect/KafkaRuntimeLoader.class",
                    "dev/flowform/connect/ConnectRuntime.class");
            assertThat(names).noneMatch(n -> n.startsWith("dev/flowform/kafka/"));
            assertThat(names).noneMatch(n -> n.startsWith("org/apache/kafka/"));
        }
    }

    @Test
    void kafkaFolderHoldsTheRuntimeAndNoCopiesOfMainJarLibraries() throws IOException {
        assumePackaged();
        try (JarFile jar = new JarFile(KAFKA.resolve("flowform-kafka.jar").toFile())) {
            List<String> classes = jar.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class")).toList();
            assertThat(classes).contains("dev/flowform/kafka/KafkaConnectRuntime.class",
                    "dev/flowform/kafka/WorkerMain.class");
            assertThat(classes).allMatch(n -> n.startsWith("dev/flowform/kafka/"));
        }
        try (Stream<Path> files = Files.list(KAFKA)) {
            List<String> jars = files.map(p -> p.getFileName().toString()).toList();
            assertThat(jars).anyMatch(n -> n.startsWith("connect-mirror-"))
                    .anyMatch(n -> n.startsWith("kafka_2.13-"))
                    .anyMatch(n -> n.startsWith("slf4j-simple-"));
            // in flowform.jar already; the loader is parent-first, a second copy would only be dead weight
            assertThat(jars).noneMatch(n -> n.startsWith("slf4j-api-") || n.startsWith("slf4j-nop-")
                    || n.startsWith("jackson-annotations-") || n.startsWith("jackson-core-"));
        }
    }

    @Test
    void jarFindsKafkaBesideItself() throws Exception {
        assumePackaged();
        assumeTrue(System.getenv(KafkaRuntimeLoader.ENV_KAFKA_LIB) == null, "FLOWFORM_KAFKA_LIB overrides the folder");
        // flowform.jar alone, over the platform loader: nothing of the test class path (where Kafka is) leaks in
        try (URLClassLoader flowform = new URLClassLoader(new URL[] {JAR.toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> loaderClass = flowform.loadClass(KafkaRuntimeLoader.class.getName());
            Method m = loaderClass.getMethod("kafkaClassLoader");
            ClassLoader kafka = (ClassLoader) m.invoke(null);
            assertThat(kafka).isNotSameAs(flowform);
            assertThat(kafka.getParent()).isSameAs(flowform);
            Class<?> runtime = kafka.loadClass("dev.flowform.kafka.KafkaConnectRuntime");
            assertThat(runtime.getClassLoader()).isSameAs(kafka);
            // the port is flowform.jar's own interface, so the real runtime can be used through it
            assertThat(flowform.loadClass(ConnectRuntime.class.getName()).isAssignableFrom(runtime)).isTrue();
            assertThat(kafka.loadClass(KafkaRuntimeLoader.KAFKA_PROBE_CLASS).getClassLoader()).isSameAs(kafka);
            assertThat(kafka.loadClass("org.slf4j.Logger").getClassLoader()).isSameAs(flowform);
        }
    }

    @Test
    void brokerStartsFromThePackagedJarWithoutTheCallerSwitchingContextLoader(@TempDir Path dir) throws Exception {
        assumePackaged();
        assumeTrue(System.getenv(KafkaRuntimeLoader.ENV_KAFKA_LIB) == null, "FLOWFORM_KAFKA_LIB overrides the folder");
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        try (URLClassLoader flowform = new URLClassLoader(new URL[] {JAR.toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            // as under java -jar flowform.jar: the context loader sees flowform.jar, not Kafka
            thread.setContextClassLoader(flowform);
            ClassLoader kafka = (ClassLoader) flowform.loadClass(KafkaRuntimeLoader.class.getName())
                    .getMethod("kafkaClassLoader").invoke(null);
            Class<?> clusters = kafka.loadClass("dev.flowform.kafka.KafkaClusters");
            try (AutoCloseable c = (AutoCloseable) clusters.getMethod("start", Map.class, Path.class)
                    .invoke(null, Map.of("dc1", List.of("dc1:9092")), dir)) {
                clusters.getMethod("createTopic", String.class, String.class, int.class).invoke(c, "dc1", "orders", 1);
            }
            assertThat(thread.getContextClassLoader()).isSameAs(flowform);
        } finally {
            thread.setContextClassLoader(before);
        }
    }
}
