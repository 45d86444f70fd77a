package dev.flowform.kafka;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;

/**
 * Entry point of one Kafka Connect distributed worker in a child JVM: what {@code connect-distributed.sh}
 * runs in a Strimzi worker pod. One process per worker pod, so that deleting a pod stops a process
 * (SIGTERM: Connect's shutdown hook stops the worker gracefully) and a crash can be a real SIGKILL.
 *
 * <p>Usage: {@code WorkerMain <worker.properties>}. Exits 0 when stopped, 3 when the worker cannot start
 * (as {@code ConnectDistributed} does), {@value ParentWatch#PARENT_GONE} when the JVM that launched it is gone
 * ({@link ParentWatch}).
 */
public final class WorkerMain {
    private WorkerMain() {
    }

    /**
     * @param args one argument: the worker properties file
     * @throws IOException when the file cannot be read
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: WorkerMain <worker.properties>");
            System.exit(2);
        }
        ParentWatch.start(System.in);
        Properties props = new Properties();
        try (Reader r = Files.newBufferedReader(Path.of(args[0]))) {
            props.load(r);
        }
        Map<String, String> config = new LinkedHashMap<>();
        props.stringPropertyNames().forEach(k -> config.put(k, props.getProperty(k)));
        Connect<?> connect = new ConnectDistributed().startConnect(config);
        connect.awaitStop();
    }
}
