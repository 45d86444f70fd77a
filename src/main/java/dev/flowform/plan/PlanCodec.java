package dev.flowform.plan;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Severity;
import dev.flowform.diag.SourcePos;
import dev.flowform.diag.SourceRange;
import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.SecretKeys;
import dev.flowform.model.strimzi.SecretFields;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The versioned JSON form of a {@link Plan} ({@code plan --json}, {@code --out}, the state's runs, the human
 * rendering). No secret in clear: display attributes are masked, step payloads and variables go through the caller's
 * encoder (a saved plan's encryption, reversed by {@link #decode(String, UnaryOperator)}). Version 1 documents still
 * decode; a newer version is refused.
 */
public final class PlanCodec {

    /** Encoder that replaces a sensitive value by {@link SecretKeys#MASK}. */
    public static final UnaryOperator<String> MASK = v -> SecretKeys.MASK;

    private PlanCodec() {
    }

    /**
     * @param flowformVersion the version of flowform that made the plan
     * @param secrets         maps each sensitive value to what the document stores instead
     * @return the plan's JSON document
     */
    public static ObjectNode encode(Plan plan, String flowformVersion, UnaryOperator<String> secrets) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("format_version", plan.formatVersion());
        root.put("flowform_version", flowformVersion);
        root.put("environment", plan.environment());
        root.put("created_at", plan.createdAt().toString());
        root.put("mode", plan.mode().jsonName());
        ArrayNode targets = root.putArray("targets");
        plan.targets().forEach(targets::add);
        if (plan.basedOn() == null) {
            root.putNull("based_on");
        } else {
            ObjectNode b = root.putObject("based_on");
            b.put("lineage", plan.basedOn().lineage());
            b.put("serial", plan.basedOn().serial());
        }
        ObjectNode live = root.putObject("live_objects");
        plan.liveFingerprints().forEach(live::put);
        root.set("changes", objects(plan.changes(), PlanCodec::change));
        root.set("steps", objects(plan.steps(), (s, n) -> step(s, n, secrets)));
        root.set("diagnostics", objects(plan.diagnostics(), PlanCodec::diagnostic));
        root.set("resource_drift", objects(plan.drift(), PlanCodec::drift));
        root.set("transactional_ids", objects(plan.transactionalIds(), PlanCodec::transactionalId));
        root.set("configuration", inputs(plan.inputs(), secrets));
        PlanSummary sum = plan.summary();
        ObjectNode summary = root.putObject("summary");
        summary.put("add", sum.add());
        summary.put("change", sum.change());
        summary.put("destroy", sum.destroy());
        summary.put("rolling_restarts", sum.rolls());
        root.put("applyable", plan.isApplyable());
        root.put("has_changes", plan.hasChanges());
        root.put("has_drift", plan.hasDrift());
        return root;
    }

    /** @return an array of one object per item, each filled in by {@code write} */
    private static <T> ArrayNode objects(List<T> items, BiConsumer<T, ObjectNode> write) {
        ArrayNode array = Json.MAPPER.createArrayNode();
        items.forEach(item -> write.accept(item, array.addObject()));
        return array;
    }

    /** @return one item per element of {@code array} (none for a missing node), each read by {@code read} */
    private static <T> List<T> list(JsonNode array, Function<JsonNode, T> read) {
        List<T> items = new ArrayList<>();
        array.forEach(n -> items.add(read.apply(n)));
        return items;
    }

    private static void change(Change c, ObjectNode n) {
        n.put("address", c.address());
        n.set("object", ref(c.object()));
        n.put("action", c.action().jsonName());
        n.put("reason", c.reason());
        n.set("attributes", objects(c.attributes(), PlanCodec::attribute));
    }

    private static Change change(JsonNode n) {
        return new Change(n.get("address").asString(), ref(n.get("object")), Action.fromJson(n.get("action").asString()),
                list(n.path("attributes"), PlanCodec::attribute), ChangeReason.read(text(n.get("reason"))));
    }

    private static void step(Step s, ObjectNode n, UnaryOperator<String> secrets) {
        n.put("id", s.id());
        n.put("kind", s.kind().name());
        n.put("address", s.address());
        n.set("object", ref(s.object()));
        ArrayNode deps = n.putArray("depends_on");
        s.dependsOn().forEach(deps::add);
        n.put("summary", s.summary());
        n.set("payload", payload(s.payload(), secrets));
    }

    private static Step step(JsonNode n, UnaryOperator<String> reveal) {
        return new Step(n.get("id").asInt(), StepKind.valueOf(n.get("kind").asString()), n.get("address").asString(),
                ref(n.get("object")), list(n.path("depends_on"), JsonNode::asInt), payload(n.get("payload"), reveal),
                text(n.get("summary")));
    }

    private static void drift(DriftEntry e, ObjectNode n) {
        n.put("address", e.address());
        n.set("object", ref(e.object()));
        n.put("deleted", e.deleted());
        n.set("attributes", objects(e.attributes(), PlanCodec::attribute));
        ArrayNode rev = n.putArray("reverted");
        e.reverted().forEach(rev::add);
        n.put("resolution", e.resolution());
    }

    private static DriftEntry drift(JsonNode n) {
        return new DriftEntry(n.get("address").asString(), ref(n.get("object")), n.path("deleted").asBoolean(false),
                list(n.path("attributes"), PlanCodec::attribute), list(n.path("reverted"), JsonNode::asString),
                text(n.get("resolution")));
    }

    private static void transactionalId(TransactionalId t, ObjectNode n) {
        n.put("connect_cluster", t.connectCluster());
        n.put("transactional_id", t.transactionalId());
        n.put("connector", t.connector());
        n.put("task", t.task());
        n.put("needed_from", t.neededFrom().value());
    }

    private static TransactionalId transactionalId(JsonNode n) {
        return new TransactionalId(n.get("connect_cluster").asString(), n.get("transactional_id").asString(),
                text(n.get("connector")), n.get("task") == null || n.get("task").isNull() ? null : n.get("task").asInt(),
                EosMode.parse(n.get("needed_from").asString()).orElseThrow());
    }

    private static ObjectNode inputs(PlanInputs in, UnaryOperator<String> secrets) {
        ObjectNode inputs = Json.MAPPER.createObjectNode();
        ObjectNode files = inputs.putObject("files");
        in.configFiles().forEach(files::put);
        ObjectNode vars = inputs.putObject("variables");
        in.variables().forEach((k, v) -> {
            ObjectNode n = vars.putObject(k);
            n.put("value", v.sensitive() && v.value() != null ? secrets.apply(v.value()) : v.value());
            n.put("sensitive", v.sensitive());
        });
        return inputs;
    }

    /** Display attributes are never needed in clear, so sensitive ones are always masked. */
    private static void attribute(AttributeChange a, ObjectNode n) {
        n.put("path", a.path());
        n.put("before", a.sensitive() && a.before() != null ? SecretKeys.MASK : a.before());
        n.put("after", a.sensitive() && a.after() != null ? SecretKeys.MASK : a.after());
        n.put("sensitive", a.sensitive());
    }

    private static AttributeChange attribute(JsonNode n) {
        return new AttributeChange(n.get("path").asString(), text(n.get("before")), text(n.get("after")),
                n.path("sensitive").asBoolean(false));
    }

    /** @return {@link #encode} as pretty-printed text with a trailing newline */
    public static String toJson(Plan plan, String flowformVersion, UnaryOperator<String> secrets) {
        return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(encode(plan, flowformVersion, secrets)) + "\n";
    }

    /**
     * @return the plan in document {@code json}, sensitive values as the encoder stored them
     * @throws IllegalArgumentException when the text is not a plan document or has an unsupported format version
     */
    public static Plan decode(String json) {
        return decode(json, UnaryOperator.identity());
    }

    /**
     * Decodes a plan document and turns every stored sensitive value back into what the steps need
     * (for a saved plan: decrypts it).
     *
     * @param reveal maps each stored sensitive value (in step payloads and variables) to the value to use;
     *               may throw {@link IllegalArgumentException} when a value cannot be revealed
     * @return the plan
     * @throws IllegalArgumentException when the text is not a plan document, has an unsupported format version,
     *                                  or {@code reveal} refuses a value
     */
    public static Plan decode(String json, UnaryOperator<String> reveal) {
        JsonNode root = document(json);
        int version = root.get("format_version").asInt();
        JsonNode b = root.path("based_on");
        StateRef basedOn = b.isObject() ? new StateRef(b.get("lineage").asString(), b.get("serial").asLong()) : null;
        Map<String, String> live = new LinkedHashMap<>();
        root.path("live_objects").properties().forEach(e -> live.put(e.getKey(), e.getValue().asString()));
        List<Change> changes = list(root.path("changes"), PlanCodec::change);
        List<Step> steps = list(root.path("steps"), n -> step(n, reveal));
        List<Diagnostic> diags = list(root.path("diagnostics"), PlanCodec::diagnostic);
        List<String> targets = list(root.path("targets"), JsonNode::asString);
        return new Plan(version, root.get("environment").asString(), Instant.parse(root.get("created_at").asString()),
                basedOn, live, changes, steps, diags, PlanMode.fromJson(text(root.get("mode"))), targets,
                list(root.path("resource_drift"), PlanCodec::drift),
                list(root.path("transactional_ids"), PlanCodec::transactionalId), inputs(root.path("configuration"), reveal));
    }

    /** @return the parsed document, checked to be a plan of a format version this flowform reads */
    private static JsonNode document(String json) {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(json);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a JSON document: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject() || !root.has("format_version") || !root.has("steps")) {
            throw new IllegalArgumentException("not a flowform plan document (no format_version/steps)");
        }
        int version = root.get("format_version").asInt();
        if (version > Plan.FORMAT_VERSION) {
            throw new IllegalArgumentException("plan format version " + version + " is newer than this flowform supports ("
                    + Plan.FORMAT_VERSION + ")");
        }
        return root;
    }

    private static PlanInputs inputs(JsonNode configuration, UnaryOperator<String> reveal) {
        Map<String, String> files = new LinkedHashMap<>();
        configuration.path("files").properties().forEach(e -> files.put(e.getKey(), e.getValue().asString()));
        Map<String, PlanInputs.Variable> vars = new LinkedHashMap<>();
        configuration.path("variables").properties().forEach(e -> {
            boolean sensitive = e.getValue().path("sensitive").asBoolean(false);
            String value = text(e.getValue().get("value"));
            vars.put(e.getKey(), new PlanInputs.Variable(sensitive && value != null ? reveal.apply(value) : value, sensitive));
        });
        return new PlanInputs(files, vars);
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() || n.isMissingNode() ? null : n.asString();
    }

    private static ObjectNode ref(ObjectRef r) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("api_version", r.apiVersion());
        n.put("kind", r.kind());
        n.put("namespace", r.namespace());
        n.put("name", r.name());
        return n;
    }

    private static ObjectRef ref(JsonNode n) {
        return new ObjectRef(text(n.get("api_version")), n.get("kind").asString(), n.get("namespace").asString(),
                n.get("name").asString());
    }

    private static ObjectNode payload(StepPayload p, UnaryOperator<String> secrets) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        if (p instanceof StepPayload.CreateObject c) {
            n.put("type", "create_object");
            n.set("manifest", Json.MAPPER.valueToTree(
                    SecretFields.encode(c.manifest(), c.sensitiveConfigKeys()::contains, secrets)));
            ArrayNode keys = n.putArray("sensitive_config_keys");
            c.sensitiveConfigKeys().forEach(keys::add);
        } else if (p instanceof StepPayload.PatchObject po) {
            n.put("type", "patch_object");
            n.set("edits", objects(po.edits(), (e, en) -> edit(e, en, secrets)));
        } else if (p instanceof StepPayload.SetWorkerEos s) {
            n.put("type", "set_worker_eos");
            n.put("mode", s.mode().value());
            n.set("edits", objects(s.edits(), (e, en) -> edit(e, en, secrets)));
        } else if (p instanceof StepPayload.WaitForRoll w) {
            n.put("type", "wait_for_roll");
            n.put("expected_mode", w.expectedMode().value());
            n.put("generation", w.generation());
        } else if (p instanceof StepPayload.WaitForConnector w) {
            n.put("type", "wait_for_connector");
            n.put("expected_state", w.expectedState());
            n.put("generation", w.generation());
        } else {
            n.put("type", "delete_object");
        }
        return n;
    }

    private static void edit(FieldEdit e, ObjectNode n, UnaryOperator<String> secrets) {
        ArrayNode path = n.putArray("path");
        e.path().forEach(path::add);
        if (e.remove()) {
            n.put("remove", true);
        } else {
            Object v = e.sensitive() && e.value() != null ? secrets.apply(String.valueOf(e.value())) : entry(e, secrets);
            n.set("value", Json.MAPPER.valueToTree(v));
        }
        n.put("sensitive", e.sensitive());
    }

    /**
     * @return the value of an edit that is not sensitive as a whole; a map or list it writes (a KafkaMirrorMaker2's
     *         cluster or mirror entry) with the sensitive values inside encoded ({@link SecretFields})
     */
    private static Object entry(FieldEdit e, UnaryOperator<String> secrets) {
        return e.value() instanceof Map<?, ?> || e.value() instanceof List<?>
                ? SecretFields.encodeAt(e.path(), e.value(), k -> false, secrets) : e.value();
    }

    private static StepPayload payload(JsonNode n, UnaryOperator<String> reveal) {
        String type = n.get("type").asString();
        return switch (type) {
            case "create_object" -> {
                Set<String> keys = new TreeSet<>(list(n.path("sensitive_config_keys"), JsonNode::asString));
                Map<String, Object> manifest = SecretFields.encode(toMap(n.get("manifest")), keys::contains, reveal);
                yield new StepPayload.CreateObject(manifest, keys);
            }
            case "patch_object" -> new StepPayload.PatchObject(list(n.get("edits"), e -> edit(e, reveal)));
            case "set_worker_eos" -> new StepPayload.SetWorkerEos(
                    EosMode.parse(n.get("mode").asString()).orElseThrow(), list(n.get("edits"), e -> edit(e, reveal)));
            case "wait_for_roll" -> new StepPayload.WaitForRoll(
                    EosMode.parse(n.get("expected_mode").asString()).orElseThrow(), longOrNull(n.get("generation")));
            case "wait_for_connector" -> new StepPayload.WaitForConnector(n.get("expected_state").asString(),
                    longOrNull(n.get("generation")));
            case "delete_object" -> new StepPayload.DeleteObject();
            default -> throw new IllegalArgumentException("unknown step payload type " + type);
        };
    }

    private static Long longOrNull(JsonNode n) {
        return n == null || n.isNull() ? null : n.asLong();
    }

    private static FieldEdit edit(JsonNode n, UnaryOperator<String> reveal) {
        List<String> path = list(n.get("path"), JsonNode::asString);
        boolean sensitive = n.path("sensitive").asBoolean(false);
        if (n.path("remove").asBoolean(false)) {
            return FieldEdit.remove(path, sensitive);
        }
        Object value = Json.MAPPER.convertValue(n.get("value"), Object.class);
        return FieldEdit.set(path, sensitive && value != null ? reveal.apply(String.valueOf(value))
                : entry(FieldEdit.set(path, value, false), reveal), sensitive);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> toMap(JsonNode n) {
        return Json.MAPPER.convertValue(n, LinkedHashMap.class);
    }

    private static void diagnostic(Diagnostic d, ObjectNode n) {
        n.put("severity", d.severity().jsonName());
        n.put("summary", d.summary());
        n.put("detail", d.detail());
        n.put("address", d.address());
        if (d.range() != null) {
            ObjectNode r = n.putObject("range");
            r.put("filename", d.range().filename());
            ObjectNode s = r.putObject("start");
            s.put("line", d.range().start().line());
            s.put("column", d.range().start().column());
            ObjectNode e = r.putObject("end");
            e.put("line", d.range().end().line());
            e.put("column", d.range().end().column());
        }
    }

    private static Diagnostic diagnostic(JsonNode n) {
        SourceRange range = null;
        JsonNode r = n.get("range");
        if (r != null && r.isObject()) {
            range = new SourceRange(r.get("filename").asString(),
                    new SourcePos(r.path("start").path("line").asInt(), r.path("start").path("column").asInt()),
                    new SourcePos(r.path("end").path("line").asInt(), r.path("end").path("column").asInt()));
        }
        return new Diagnostic("error".equals(n.get("severity").asString()) ? Severity.ERROR : Severity.WARNING,
                n.get("summary").asString(), text(n.get("detail")), range, text(n.get("address")));
    }
}
