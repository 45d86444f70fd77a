package dev.flowform.plan.archfixture;

import dev.flowform.sim.EmbeddedCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine;

/**
 * Breaks every rule of the core on purpose, from a package the rules count as core ({@code dev.flowform.plan..}).
 * Never run: {@code arch.ArchitectureRulesCatchViolationsTest} imports its bytecode and shows that each rule
 * reports it.
 */
public final class ImpurePlanner {

    private ImpurePlanner() {
    }

    /** Reaches an edge (the embedded cluster) from the core. */
    static boolean usesAnEdge(EmbeddedCluster cluster) {
        return cluster != null;
    }

    /** Reads the clock. */
    static Instant readsTheClock() {
        return Instant.now();
    }

    /** Draws a random number. */
    static int drawsARandomNumber() {
        return new Random().nextInt();
    }

    /** Sleeps. */
    static void sleeps() throws InterruptedException {
        Thread.sleep(1);
    }

    /** Reads the process environment. */
    static String readsTheEnvironment() {
        return System.getenv("HOME");
    }

    /** Reads a file relative to the working directory. */
    static String readsAFile(Path path) throws IOException {
        return Files.readString(path.toAbsolutePath());
    }

    /** Prints. */
    static void prints() {
        System.out.println("plan");
    }

    /** Parses a command line. */
    static CommandLine parsesACommandLine() {
        return new CommandLine(new Object());
    }

    /** Links to Kafka, which is not in flowform.jar. */
    static String linksToKafka() {
        return new TopicPartition("t", 0).topic();
    }
}
