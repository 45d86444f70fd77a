package dev.flowform.sim;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * How a Connect worker pod authenticates to its Kafka cluster, the way Strimzi sets it up from a KafkaConnect's
 * {@code spec.authentication} ({@code scram-sha-512}, {@code scram-sha-256}, {@code plain}): the operator gives the
 * container the mechanism, the user name and the password file as environment variables
 * ({@code KAFKA_CONNECT_SASL_MECHANISM}, {@code KAFKA_CONNECT_SASL_USERNAME}, {@code KAFKA_CONNECT_SASL_PASSWORD_FILE},
 * Strimzi {@code KafkaConnectCluster}) and mounts the {@code passwordSecret} under
 * {@code /opt/kafka/connect-password/<secret>}; at container start the image's script
 * ({@code kafka_connect_config_generator.sh}) reads the password and appends {@code security.protocol},
 * {@code sasl.mechanism} and {@code sasl.jaas.config} to the worker properties, also with the {@code producer.},
 * {@code consumer.} and {@code admin.} prefixes. The rendered (hashed) configuration never holds the password, and
 * neither does the pod: only the Secret does.
 *
 * <p>Strimzi 0.46 and later write the same settings into the ConfigMap, with the user name and the password as
 * config-provider references ({@code ${strimzienv:...}}, {@code ${strimzidir:...}}, {@code KafkaConnectConfigurationBuilder});
 * the simulator keeps the script's place so that the configuration hashes of existing fixtures stay as they are.
 * {@code tls} and {@code oauth} authentication are not rendered.
 */
final class WorkerAuthentication {
    static final String MECHANISM_ENV = "KAFKA_CONNECT_SASL_MECHANISM";
    static final String USERNAME_ENV = "KAFKA_CONNECT_SASL_USERNAME";
    static final String PASSWORD_FILE_ENV = "KAFKA_CONNECT_SASL_PASSWORD_FILE";
    static final String TLS_ENV = "KAFKA_CONNECT_TLS";
    /** Where Strimzi mounts the {@code passwordSecret} ({@code KafkaConnectCluster.PASSWORD_VOLUME_MOUNT}). */
    static final String PASSWORD_MOUNT = "/opt/kafka/connect-password/";
    private static final List<String> CLIENT_PREFIXES = List.of("", "producer.", "consumer.", "admin.");

    private WorkerAuthentication() {
    }

    /**
     * The environment variables the operator gives a worker container for {@code spec.authentication} and
     * {@code spec.tls}.
     *
     * @param spec the KafkaConnect {@code spec}
     * @return {@code {name, value}} entries; empty without SASL authentication
     */
    static List<Map<String, Object>> env(Map<String, Object> spec) {
        List<Map<String, Object>> env = new ArrayList<>();
        if (spec.get("tls") != null) {
            env.add(Map.of("name", TLS_ENV, "value", "true"));
        }
        Map<String, Object> auth = JsonMaps.map(spec.get("authentication"));
        String type = auth == null ? null : JsonMaps.str(auth, "type");
        if (type == null || mechanism(type) == null) {
            return env;
        }
        env.add(Map.of("name", MECHANISM_ENV, "value", type));
        env.add(Map.of("name", USERNAME_ENV, "value", String.valueOf(auth.getOrDefault("username", ""))));
        String secret = JsonMaps.str(auth, "passwordSecret", "secretName");
        String key = JsonMaps.str(auth, "passwordSecret", "password");
        if (secret != null && key != null) {
            env.add(Map.of("name", PASSWORD_FILE_ENV, "value", secret + "/" + key));
        }
        return env;
    }

    /**
     * @param spec the KafkaConnect {@code spec}
     * @return the name of the Secret holding the SASL password, or null
     */
    static String passwordSecret(Map<String, Object> spec) {
        Map<String, Object> auth = JsonMaps.map(spec.get("authentication"));
        return auth == null || mechanism(JsonMaps.str(auth, "type")) == null ? null
                : JsonMaps.str(auth, "passwordSecret", "secretName");
    }

    /**
     * The settings the container's start script appends to the worker properties.
     *
     * @param pod      the worker pod (its container's environment)
     * @param password reads {@code <secret>/<key>} of the mounted password Secret; empty when it does not exist
     * @return the settings, empty when the pod has no SASL authentication
     * @throws IllegalStateException when the password Secret or its key does not exist (the kubelet cannot mount it)
     */
    static Map<String, String> settings(Pod pod, Function<String, Optional<String>> password) {
        Map<String, String> env = env(pod);
        Map<String, String> out = new LinkedHashMap<>();
        String type = env.get(MECHANISM_ENV);
        String mechanism = type == null ? null : mechanism(type);
        boolean tls = "true".equals(env.get(TLS_ENV));
        if (mechanism == null) {
            return out;
        }
        String file = env.getOrDefault(PASSWORD_FILE_ENV, "");
        String secret = password.apply(file).orElseThrow(() -> new IllegalStateException("the password file "
                + PASSWORD_MOUNT + file + " is not there: its Secret or key does not exist"));
        String module = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        String jaas = module + " required username=\"" + env.getOrDefault(USERNAME_ENV, "") + "\" password=\"" + secret
                + "\";";
        for (String prefix : CLIENT_PREFIXES) {
            out.put(prefix + "security.protocol", tls ? "SASL_SSL" : "SASL_PLAINTEXT");
        }
        for (String prefix : CLIENT_PREFIXES) {
            out.put(prefix + "sasl.mechanism", mechanism);
            out.put(prefix + "sasl.jaas.config", jaas);
        }
        return out;
    }

    private static Map<String, String> env(Pod pod) {
        Map<String, String> env = new LinkedHashMap<>();
        if (pod.getSpec() != null) {
            pod.getSpec().getContainers().forEach(c -> c.getEnv().forEach((EnvVar e) -> env.put(e.getName(), e.getValue())));
        }
        return env;
    }

    private static String mechanism(String type) {
        return switch (type == null ? "" : type.toLowerCase(Locale.ROOT)) {
            case "scram-sha-512" -> "SCRAM-SHA-512";
            case "scram-sha-256" -> "SCRAM-SHA-256";
            case "plain" -> "PLAIN";
            default -> null;
        };
    }
}
