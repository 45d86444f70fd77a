package dev.flowform.config.imports;

import java.util.List;

/**
 * What {@link AdoptionWriter} produced for one namespace.
 *
 * @param files   one configuration file per KafkaConnect, in name order
 * @param leftOut what was read but not written, each with the reason, in the order met
 */
public record Adoption(List<File> files, List<LeftOut> leftOut) {

    /** Copies the lists. */
    public Adoption {
        files = List.copyOf(files);
        leftOut = List.copyOf(leftOut);
    }

    /**
     * One written configuration file.
     *
     * @param name the file name ({@code <connect cluster>.flow.json})
     * @param text its formatted content, ending with one newline
     */
    public record File(String name, String text) {
    }

    /**
     * An object, or one configuration key of it, that the configuration does not declare.
     *
     * @param object the object, e.g. {@code KafkaConnector replication/jdbc-sink}, or a key of it
     * @param reason why it is left out, and what that means for the plan
     */
    public record LeftOut(String object, String reason) {
    }
}
