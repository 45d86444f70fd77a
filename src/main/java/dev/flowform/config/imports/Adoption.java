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

    /** One written configuration file: its name ({@code <connect cluster>.flow.json}), its text ending with a newline. */
    public record File(String name, String text) {
    }

    /**
     * An object ({@code KafkaConnector replication/jdbc-sink}), or one configuration key of it, that the configuration
     * does not declare, with why it is left out and what that means for the plan.
     */
    public record LeftOut(String object, String reason) {
    }
}
