package dev.flowform.connect;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the real Kafka runtime (Kafka's jars and {@code dev.flowform.kafka}), which is not in {@code flowform.jar}:
 * from the class path when it is there (tests), else from {@value #ENV_KAFKA_LIB} or {@code kafka/} beside the jar, in
 * a parent-first {@link URLClassLoader} over flowform's own (docs/real-kafka.md).
 */
public final class KafkaRuntimeLoader {
    /** Environment variable naming the folder of Kafka jars; overrides {@code kafka/} beside flowform's jar. */
    public static final String ENV_KAFKA_LIB = "FLOWFORM_KAFKA_LIB";
    /** Loadable only when Apache Kafka Connect is on the class path. */
    static final String KAFKA_PROBE_CLASS = "org.apache.kafka.connect.cli.ConnectDistributed";
    /** Loadable only when flowform's Kafka-facing classes are on the class path. */
    static final String RUNTIME_PROBE_CLASS = "dev.flowform.kafka.KafkaConnectRuntime";

    private static ClassLoader cached;

    private KafkaRuntimeLoader() {
    }

    /**
     * The class loader that sees Kafka and {@code dev.flowform.kafka}; the same one for the life of the JVM.
     *
     * @return flowform's own class loader when both are already loadable through it, else a loader over every jar
     *         of the Kafka folder with flowform's loader as parent
     * @throws ConnectRuntimeException when neither the class path nor the Kafka folder provides them
     */
    public static synchronized ClassLoader kafkaClassLoader() {
        if (cached == null) {
            ClassLoader own = KafkaRuntimeLoader.class.getClassLoader();
            cached = hasKafka(own) ? own : openFolder(kafkaLibDir(System.getenv(), ownLocation()), own);
        }
        return cached;
    }

    /**
     * Loads {@code className} through {@link #kafkaClassLoader()} and calls its public constructor, with that loader as
     * the thread's context class loader meanwhile (Kafka resolves configured class names through it).
     *
     * @param <T>        the type the instance is used as, e.g. {@link ConnectRuntime}
     * @param className  the class to instantiate, e.g. {@code dev.flowform.kafka.KafkaConnectRuntime}
     * @param type       what the class must be assignable to
     * @param paramTypes the constructor's parameter types
     * @param args       the constructor's arguments
     * @return the new instance
     * @throws ConnectRuntimeException when the Kafka libraries are missing or the class cannot be made; also wraps a
     *                                 checked exception of the constructor (unchecked ones are rethrown as they are)
     */
    public static <T> T newInstance(String className, Class<T> type, Class<?>[] paramTypes, Object... args) {
        return newInstance(kafkaClassLoader(), className, type, paramTypes, args);
    }

    static <T> T newInstance(ClassLoader loader, String className, Class<T> type, Class<?>[] paramTypes,
            Object... args) {
        Class<? extends T> cls;
        try {
            cls = Class.forName(className, true, loader).asSubclass(type);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new ConnectRuntimeException("cannot load " + className + " from the Kafka libraries: " + e, e);
        } catch (ClassCastException e) {
            throw new ConnectRuntimeException(className + " is not a " + type.getName()
                    + " (loaded twice, by different class loaders?)", e);
        }
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return cls.getConstructor(paramTypes).newInstance(args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new ConnectRuntimeException(className + " could not be created: " + cause, cause);
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            throw new ConnectRuntimeException(className + " could not be created: " + e, e);
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    /** @return true when both probe classes load through {@code loader} (without initialising them) */
    static boolean hasKafka(ClassLoader loader) {
        try {
            Class.forName(KAFKA_PROBE_CLASS, false, loader);
            Class.forName(RUNTIME_PROBE_CLASS, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Where the Kafka jars should be.
     *
     * @param env      the environment ({@link System#getenv()} in production)
     * @param location the jar or class folder flowform runs from, if known
     * @return {@value #ENV_KAFKA_LIB} when set and not blank, else {@code kafka/} beside {@code location}
     * @throws ConnectRuntimeException when neither is known
     */
    static Path kafkaLibDir(Map<String, String> env, Optional<Path> location) {
        String fromEnv = env.get(ENV_KAFKA_LIB);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Path.of(fromEnv.strip());
        }
        Path parent = location.map(Path::toAbsolutePath).map(Path::getParent).orElse(null);
        if (parent == null) {
            throw missing("(the location of flowform's jar is unknown and " + ENV_KAFKA_LIB + " is not set)");
        }
        return parent.resolve("kafka");
    }

    /**
     * A loader over every {@code *.jar} directly in {@code dir}, parent-first through {@code parent}.
     *
     * @throws ConnectRuntimeException when {@code dir} holds no jars or lacks the Kafka or flowform-kafka classes
     */
    static URLClassLoader openFolder(Path dir, ClassLoader parent) {
        List<URL> urls = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path jar : files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().toList()) {
                    urls.add(jar.toUri().toURL());
                }
            } catch (IOException e) {
                throw new ConnectRuntimeException("cannot list the Kafka libraries in " + dir + ": " + e, e);
            }
        }
        if (urls.isEmpty()) {
            throw missing(dir.toString());
        }
        URLClassLoader loader = new URLClassLoader("flowform-kafka", urls.toArray(URL[]::new), parent);
        if (!hasKafka(loader)) {
            try {
                loader.close();
            } catch (IOException e) {
                // nothing was loaded from it
            }
            throw missing(dir + " (it has jars, but not " + KAFKA_PROBE_CLASS + " and " + RUNTIME_PROBE_CLASS + ")");
        }
        return loader;
    }

    private static ConnectRuntimeException missing(String where) {
        return new ConnectRuntimeException("real Kafka needs the Kafka libraries, which are not in flowform.jar;"
                + " looked in " + where + ". `mvn package` puts them in target/kafka/ next to target/flowform.jar;"
                + " keep that folder beside the jar, or set " + ENV_KAFKA_LIB + " to a folder holding those jars.",
                null);
    }

    /** @return the jar (or class folder) this class was loaded from, when it is a local file */
    private static Optional<Path> ownLocation() {
        try {
            CodeSource src = KafkaRuntimeLoader.class.getProtectionDomain().getCodeSource();
            URL url = src == null ? null : src.getLocation();
            return url == null ? Optional.empty() : Optional.of(Path.of(url.toURI()));
        } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
            return Optional.empty();
        }
    }
}
