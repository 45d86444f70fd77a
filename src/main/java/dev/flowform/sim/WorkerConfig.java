package dev.flowform.sim;

import dev.flowform.model.EosMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.Strimzi;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renders Kafka Connect worker properties from a KafkaConnect {@code spec} as the Strimzi operator does
 * ({@code KafkaConnectConfiguration}): bootstrap, group id, storage topics, then the other {@code spec.config} keys
 * sorted, forbidden keys dropped; and the pod revision derived from them.
 */
final class WorkerConfig {
    private static final String HEADER =
            "# Do not change this generated file. Logging can be configured in the corresponding Kubernetes resource.\n";
    private static final String FOOTER = "rest.advertised.host.name=${strimzidir:/opt/kafka/init:pod.ip}\n"
            + "rest.advertised.port=8083\n"
            + "plugin.path=/opt/kafka/plugins\n";
    private static final List<String> FORBIDDEN_PREFIXES = List.of("ssl.", "sasl.", "security.", "listeners",
            "plugin.path", "rest.", "bootstrap.servers", "consumer.interceptor.classes", "producer.interceptor.classes",
            "prometheus.metrics.reporter.");
    private static final List<String> FORBIDDEN_EXCEPTIONS = List.of("ssl.endpoint.identification.algorithm",
            "ssl.cipher.suites", "ssl.protocol", "ssl.enabled.protocols");
    private static final List<String> GROUP_KEYS = List.of("group.id", "config.storage.topic", "offset.storage.topic",
            "status.storage.topic");

    private WorkerConfig() {
    }

    /**
     * The rendered worker configuration of one KafkaConnect spec.
     *
     * @param body     the properties, one {@code key=value} per line (the env var form of Strimzi 0.45)
     * @param fileText the ConfigMap file form: generated-file header, {@code body}, REST and plugin-path lines
     */
    record Rendered(String body, String fileText) {
        /** @return {@code strimzi.io/configuration-hash} of the file form: first 8 hex chars of its SHA-1 */
        String configurationHash() {
            return Strimzi.sha1Prefix(fileText);
        }
    }

    /**
     * @param spec the KafkaConnect {@code spec}
     * @param api  the API version the object was read with (decides where the group id lives)
     * @return the worker configuration
     */
    static Rendered render(Map<String, Object> spec, StrimziApi api) {
        return render(spec, api, Map.of());
    }

    /**
     * Renders the worker configuration of {@code spec} with the operator's {@code defaults} under the user's options;
     * {@code api} decides where the group id lives.
     */
    static Rendered render(Map<String, Object> spec, StrimziApi api, Map<String, String> defaults) {
        Map<String, Object> config = JsonMaps.map(spec.get("config"));
        Map<String, String> cfg = new TreeMap<>(defaults);
        if (config != null) {
            config.forEach((k, v) -> cfg.put(k, v == null ? "" : v.toString()));
        }
        Map<String, String> head = new LinkedHashMap<>();
        head.put("bootstrap.servers", String.valueOf(spec.getOrDefault("bootstrapServers", "")));
        if (api == StrimziApi.V1) {
            head.put("group.id", string(spec, "groupId", Strimzi.DEFAULT_GROUP_ID));
            head.put("config.storage.topic", string(spec, "configStorageTopic", Strimzi.DEFAULT_CONFIG_STORAGE_TOPIC));
            head.put("offset.storage.topic", string(spec, "offsetStorageTopic", Strimzi.DEFAULT_OFFSET_STORAGE_TOPIC));
            head.put("status.storage.topic", string(spec, "statusStorageTopic", Strimzi.DEFAULT_STATUS_STORAGE_TOPIC));
        } else {
            head.put("group.id", cfg.getOrDefault("group.id", Strimzi.DEFAULT_GROUP_ID));
            head.put("config.storage.topic", cfg.getOrDefault("config.storage.topic", Strimzi.DEFAULT_CONFIG_STORAGE_TOPIC));
            head.put("offset.storage.topic", cfg.getOrDefault("offset.storage.topic", Strimzi.DEFAULT_OFFSET_STORAGE_TOPIC));
            head.put("status.storage.topic", cfg.getOrDefault("status.storage.topic", Strimzi.DEFAULT_STATUS_STORAGE_TOPIC));
        }
        StringBuilder body = new StringBuilder();
        head.forEach((k, v) -> body.append(k).append('=').append(v).append('\n'));
        cfg.forEach((k, v) -> {
            if (!GROUP_KEYS.contains(k) && !forbidden(k)) {
                body.append(k).append('=').append(v).append('\n');
            }
        });
        return new Rendered(body.toString(), HEADER + body + FOOTER);
    }

    /** @return true when Strimzi ignores {@code key} in {@code spec.config} */
    static boolean forbidden(String key) {
        if (FORBIDDEN_EXCEPTIONS.contains(key)) {
            return false;
        }
        return FORBIDDEN_PREFIXES.stream().anyMatch(key::startsWith);
    }

    /**
     * @param spec the KafkaConnect {@code spec}
     * @return a fingerprint of everything in the spec that shapes the worker pods (all but {@code replicas})
     */
    static String fingerprint(Map<String, Object> spec) {
        Map<String, Object> copy = new LinkedHashMap<>(spec);
        copy.remove("replicas");
        try {
            byte[] d = MessageDigest.getInstance("SHA-1").digest(JsonMaps.canonicalJson(copy).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every Java platform", e);
        }
    }

    /** @return the pod revision, 8 hex characters of SHA-1 over the spec without replicas and the rendered configuration */
    static String revision(Map<String, Object> spec, Rendered rendered) {
        Map<String, Object> copy = new LinkedHashMap<>(spec);
        copy.remove("replicas");
        return Strimzi.sha1Prefix("pod-revision\n" + JsonMaps.canonicalJson(copy) + "\n" + rendered.fileText());
    }

    /** @return true when worker properties {@code text} were rendered from {@code spec} (its config and EOS mode agree) */
    static boolean carries(Map<String, Object> spec, String text) {
        if (text == null) {
            return false;
        }
        Map<String, String> props = parse(text);
        Map<String, Object> config = JsonMaps.map(spec.get("config"));
        String specEos = null;
        if (config != null) {
            for (Map.Entry<String, Object> e : config.entrySet()) {
                String value = e.getValue() == null ? "" : e.getValue().toString();
                if (e.getKey().equals(EosMode.CONFIG_KEY)) {
                    specEos = value;
                } else if (!forbidden(e.getKey()) && !value.strip().equals(props.get(e.getKey()))) {
                    return false;
                }
            }
        }
        return EosMode.parse(specEos).equals(EosMode.parse(props.get(EosMode.CONFIG_KEY)));
    }

    /** @return key to value of properties {@code text} (null for none) read as a worker reads them, in file order */
    static Map<String, String> parse(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        if (text == null) {
            return out;
        }
        for (String line : text.split("\\R")) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#") || t.startsWith("!")) {
                continue;
            }
            int eq = t.indexOf('=');
            int colon = t.indexOf(':');
            int sep = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
            if (sep < 0) {
                out.put(t, "");
            } else {
                out.put(t.substring(0, sep).strip(), t.substring(sep + 1).strip());
            }
        }
        return out;
    }

    /**
     * @param text worker properties, or null
     * @return the worker's {@code exactly.once.source.support} mode; an unparsable value counts as
     *         {@link EosMode#DISABLED} (such a worker would not start)
     */
    static EosMode eosMode(String text) {
        return EosMode.parse(parse(text).get(EosMode.CONFIG_KEY)).orElse(EosMode.DISABLED);
    }

    private static String string(Map<String, Object> spec, String key, String dflt) {
        Object v = spec.get(key);
        return v == null ? dflt : v.toString();
    }
}
