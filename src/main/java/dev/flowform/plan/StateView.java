package dev.flowform.plan;

import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@code flowform show} without a plan file prints: an environment's state version and the
 * last applied body of every object it manages (secret values already hashed in the bodies), in address order.
 */
public record StateView(String environment, String lineage, long serial, List<RecordedResource> resources) {

    /** Version of the JSON document {@link #toJson()} writes. */
    public static final int FORMAT_VERSION = 1;

    public StateView {
        resources = List.copyOf(resources);
    }

    /** @return the JSON document ({@code format_version}, {@code environment}, {@code lineage}, {@code serial}, {@code resources}) */
    public String toJson() {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("format_version", FORMAT_VERSION);
        root.put("environment", environment);
        root.put("lineage", lineage);
        root.put("serial", serial);
        ArrayNode list = root.putArray("resources");
        for (RecordedResource r : resources) {
            ObjectNode n = list.addObject();
            n.put("address", r.address());
            n.put("kind", r.kind());
            n.put("namespace", r.namespace());
            n.put("name", r.name());
            n.put("updated_serial", r.serial());
            n.set("body", Json.MAPPER.valueToTree(r.body()));
        }
        return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    }
}
