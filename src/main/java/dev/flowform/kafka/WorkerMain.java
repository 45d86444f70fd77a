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
 * Entry point of one Kafka Connect distributed worker in a child JVM, as {@code connect-distributed.sh} in a Strimzi
 * pod: one process per pod, so deleting a pod stops a process and a crash is a real SIGKILL. Usage:
 * {@code WorkerMain <worker.properties>}; exits 0 when stopped, 3 when the worker cannot start,
 * {@value ParentWatch#PARENT_GONE} when its parent JVM is gone.
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
