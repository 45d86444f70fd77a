package dev.flowform.sim;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.path.NodePath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * One served version of a CustomResourceDefinition applied to a write as the API server applies its
 * {@code openAPIV3Schema}: pruning of unknown fields (and of non-nullable nulls), then validation with networknt's
 * JSON-schema validator, each finding turned into the API server's cause (Kubernetes docs, "Extend the Kubernetes
 * API with CustomResourceDefinitions"). No defaults, no CEL rules (docs/strimzi-crds.md).
 */
final class CrdSchema {
    /** Kubernetes' RFC 1123 subdomain, the rule for a custom resource's {@code metadata.name}. */
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final List<String> SERVER_OWNED = List.of("apiVersion", "kind", "metadata");

    private final String kind;
    private final String group;
    private final JsonNode schema;
    private Schema compiled;

    /**
     * @param kind   e.g. {@code KafkaConnect}
     * @param group  e.g. {@code kafka.strimzi.io}
     * @param schema the version's {@code openAPIV3Schema}
     */
    CrdSchema(String kind, String group, JsonNode schema) {
        this.kind = kind;
        this.group = group;
        this.schema = schema;
    }

    /** A field the API server refuses: {@code details.causes[]} of its 422 {@code Status}. */
    record Cause(String reason, String message, String field) {
    }

    /**
     * What the API server does with one object of this kind.
     *
     * @param object  the object after pruning (a new map)
     * @param pruned  the fields pruning dropped, as {@code spec.foo} ({@code fieldValidation=Strict} refuses them)
     * @param causes  the validation findings; empty when the object is valid
     */
    record Result(Map<String, Object> object, List<String> pruned, List<Cause> causes) {
        /** @return true when the object may be stored */
        boolean valid() {
            return causes.isEmpty();
        }
    }

    /** @return the kind this schema describes */
    String kind() {
        return kind;
    }

    /** @return the API group of the kind */
    String group() {
        return group;
    }

    /** Prunes and validates one object (apiVersion, kind, metadata, spec, status as maps). */
    Result check(Map<String, Object> object) {
        Map<String, Object> rest = new LinkedHashMap<>(object);
        Map<String, Object> copy = new LinkedHashMap<>();
        for (String owned : SERVER_OWNED) {
            if (rest.containsKey(owned)) {
                copy.put(owned, JsonMaps.deepCopy(rest.remove(owned)));
            }
        }
        List<String> pruned = new ArrayList<>();
        copy.putAll(JsonMaps.map(prune(rest, schema, "", pruned)));
        List<Cause> causes = new ArrayList<>(metadataCauses(copy));
        List<Error> errors;
        synchronized (this) {
            if (compiled == null) {
                compiled = SchemaRegistry.withDialect(Dialects.getOpenApi30(), b -> b.schemaRegistryConfig(
                        SchemaRegistryConfig.builder().preloadSchema(false).build())).getSchema(schema);
            }
            errors = compiled.validate(JsonMaps.MAPPER.valueToTree(copy));
        }
        for (Error e : errors) {
            causes.add(cause(e));
        }
        return new Result(copy, List.copyOf(pruned), List.copyOf(causes));
    }

    /** Drops what {@code schema} does not specify from {@code value}; the dropped fields go to {@code pruned}. */
    private static Object prune(Object value, JsonNode schema, String path, List<String> pruned) {
        if (value instanceof Map<?, ?> m) {
            JsonNode properties = schema.get("properties");
            JsonNode additional = schema.get("additionalProperties");
            boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String key = String.valueOf(e.getKey());
                JsonNode property = properties == null ? null : properties.get(key);
                JsonNode valueSchema = property != null ? property : additional != null && additional.isObject() ? additional : null;
                if (e.getValue() == null && valueSchema != null && !valueSchema.path("nullable").asBoolean(false)) {
                    continue; // the API server drops a null it may not keep before validating (and a schema without defaults)
                }
                if (property != null) {
                    out.put(key, prune(e.getValue(), property, child(path, key), pruned));
                } else if (additional != null && additional.isObject()) {
                    out.put(key, prune(e.getValue(), additional, child(path, key), pruned));
                } else if (preserve || (additional != null && additional.asBoolean(false))) {
                    out.put(key, e.getValue());
                } else {
                    pruned.add(child(path, key));
                }
            }
            return out;
        }
        if (value instanceof List<?> l && schema.has("items")) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < l.size(); i++) {
                out.add(prune(l.get(i), schema.get("items"), path + "[" + i + "]", pruned));
            }
            return out;
        }
        return value;
    }

    private static String child(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static List<Cause> metadataCauses(Map<String, Object> object) {
        String name = JsonMaps.str(object, "metadata", "name");
        if (name == null || name.isEmpty()) {
            return JsonMaps.str(object, "metadata", "generateName") != null ? List.of()
                    : List.of(new Cause("FieldValueRequired", "Required value: name or generateName is required", "metadata.name"));
        }
        if (name.length() > 253 || !DNS_SUBDOMAIN.matcher(name).matches()) {
            return List.of(new Cause("FieldValueInvalid", "Invalid value: " + quoted(name) + ": a lowercase RFC 1123 subdomain "
                    + "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
                    + "alphanumeric character", "metadata.name"));
        }
        return List.of();
    }

    /** The API server's words for one finding (k8s.io/kube-openapi validate errors, apimachinery field errors). */
    private static Cause cause(Error e) {
        String field = field(e.getInstanceLocation());
        JsonNode value = e.getInstanceNode();
        String keyword = e.getKeyword() == null ? "" : e.getKeyword();
        switch (keyword) {
            case "required" -> {
                return new Cause("FieldValueRequired", "Required value",
                        field.isEmpty() ? e.getProperty() : field + "." + e.getProperty());
            }
            case "type" -> {
                String actual = typeName(value);
                return new Cause("FieldValueTypeInvalid", "Invalid value: " + quoted(actual) + ": " + field
                        + " in body must be of type " + typeList(e.getSchemaNode()) + ": " + quoted(actual), field);
            }
            case "enum" -> {
                String supported = e.getSchemaNode() == null ? "" : streamOf(e.getSchemaNode()).stream()
                        .map(CrdSchema::shown).collect(Collectors.joining(", "));
                return new Cause("FieldValueNotSupported", "Unsupported value: " + shown(value) + ": supported values: "
                        + supported, field);
            }
            case "minimum" -> {
                return new Cause("FieldValueInvalid", "Invalid value: " + shown(value) + ": " + field
                        + " in body should be greater than or equal to " + e.getSchemaNode(), field);
            }
            case "maximum" -> {
                return new Cause("FieldValueInvalid", "Invalid value: " + shown(value) + ": " + field
                        + " in body should be less than or equal to " + e.getSchemaNode(), field);
            }
            case "pattern" -> {
                return new Cause("FieldValueInvalid", "Invalid value: " + shown(value) + ": " + field
                        + " in body should match '" + (e.getSchemaNode() == null ? "" : e.getSchemaNode().asString()) + "'", field);
            }
            case "oneOf" -> {
                return new Cause("FieldValueInvalid", "Invalid value: " + quoted(typeName(value)) + ": " + field
                        + " in body must validate one and only one schema (oneOf)", field);
            }
            default -> {
                return new Cause("FieldValueInvalid", "Invalid value: " + shown(value) + ": " + field + " in body: "
                        + e.getMessage(), field);
            }
        }
    }

    private static List<JsonNode> streamOf(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }

    /** @return {@code spec.mirrors[0].source} for the node path {@code /spec/mirrors/0/source} */
    static String field(NodePath path) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < path.getNameCount(); i++) {
            Object element = path.getElement(i);
            if (element instanceof Number n) {
                b.append('[').append(n).append(']');
            } else {
                if (b.length() > 0) {
                    b.append('.');
                }
                b.append(element);
            }
        }
        return b.toString();
    }

    private static String typeList(JsonNode type) {
        if (type == null) {
            return "";
        }
        if (type.isArray()) {
            return streamOf(type).stream().map(JsonNode::asString).collect(Collectors.joining(","));
        }
        return type.asString();
    }

    private static String typeName(JsonNode value) {
        if (value == null || value.isNull()) {
            return "null";
        }
        if (value.isObject()) {
            return "object";
        }
        if (value.isArray()) {
            return "array";
        }
        if (value.isBoolean()) {
            return "boolean";
        }
        if (value.isIntegralNumber()) {
            return "integer";
        }
        return value.isNumber() ? "number" : "string";
    }

    /** @return a value as the API server shows it: strings quoted, other scalars as they are, objects by type */
    private static String shown(JsonNode value) {
        if (value == null || value.isNull()) {
            return "null";
        }
        if (value.isString()) {
            return quoted(value.asString());
        }
        if (value.isContainer()) {
            return quoted(typeName(value));
        }
        return value.toString();
    }

    private static String quoted(String s) {
        return JsonMaps.MAPPER.writeValueAsString(s);
    }
}
