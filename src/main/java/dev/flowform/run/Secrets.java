package dev.flowform.run;

import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.LiveState;
import dev.flowform.model.SecretKeys;
import dev.flowform.model.strimzi.SecretFields;
import io.fabric8.kubernetes.client.Config;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The secret strings one command has come across, each replaced by {@link SecretKeys#MASK} wherever it appears; one
 * instance for the view and the state journal, so a secret in an error message reaches neither. Secret: sensitive
 * variables, sensitive connector and worker values, JAAS secret options, kubeconfig credentials; values shorter than
 * {@value #MIN_LENGTH} characters are ignored. Thread-safe.
 */
public final class Secrets {

    /** Shortest value that is masked, in characters. */
    public static final int MIN_LENGTH = 4;

    /** JAAS option {@code name="value"} (Kafka's {@code sasl.jaas.config} syntax). */
    private static final Pattern JAAS_OPTION = Pattern.compile("([A-Za-z0-9_.-]+)\\s*=\\s*\"([^\"]*)\"");

    /** Longest first, so a secret that contains another is masked whole. */
    private final Set<String> values = new TreeSet<>(Comparator.comparingInt(String::length).reversed()
            .thenComparing(Comparator.naturalOrder()));

    /** @param found values to mask from now on (null and short values are ignored) */
    public synchronized void add(Collection<String> found) {
        for (String v : found) {
            if (v != null && v.length() >= MIN_LENGTH) {
                values.add(v);
            }
        }
    }

    /** Adds the values of sensitive keys of every desired cluster, connector and KafkaMirrorMaker2 (all its configs). */
    public void addDesired(DesiredState desired) {
        Set<String> out = new LinkedHashSet<>();
        for (DesiredConnectCluster c : desired.clusters()) {
            sensitive(c.config(), c::isSensitive, out);
        }
        for (DesiredFlow f : desired.flows()) {
            for (DesiredConnector d : f.connectors()) {
                sensitive(d.config(), d::isSensitive, out);
            }
        }
        for (DesiredMirrorMaker2 m : desired.mirrorMakers()) {
            List<Map<String, String>> maps = new ArrayList<>(List.of(m.config()));
            for (DesiredMirror mirror : m.mirrors()) {
                maps.addAll(List.of(mirror.sourceClusterConfig(), mirror.sourceConnectorConfig(),
                        mirror.checkpointConnectorConfig()));
            }
            maps.forEach(c -> sensitive(c, m::isSensitive, out));
        }
        add(out);
    }

    /**
     * Adds the values of sensitive keys of every live cluster and connector, and every sensitive value of a
     * KafkaMirrorMaker2 ({@link SecretFields}: its cluster, target, source and connector configs).
     */
    public void addLive(LiveState live) {
        Set<String> out = new LinkedHashSet<>();
        for (LiveConnectCluster c : live.clusters()) {
            sensitive(c.config(), SecretKeys::isSensitive, out);
        }
        for (LiveConnector c : live.connectors()) {
            sensitive(c.config(), SecretKeys::isSensitive, out);
        }
        for (LiveMirrorMaker2 m : live.mirrorMakers()) {
            SecretFields.encode(m.workers().raw(), k -> false, v -> {
                collect(out, v);
                return v;
            });
        }
        add(out);
    }

    /** Adds the token, password, client key and auth-provider settings of a kubeconfig. */
    public void addKubeconfig(Config config) {
        Set<String> out = new LinkedHashSet<>();
        collect(out, config.getOauthToken());
        collect(out, config.getPassword());
        collect(out, config.getClientKeyData());
        collect(out, config.getClientKeyPassphrase());
        if (config.getAuthProvider() != null && config.getAuthProvider().getConfig() != null) {
            config.getAuthProvider().getConfig().values().forEach(v -> collect(out, v));
        }
        add(out);
    }

    /** @return a copy of the values registered so far, longest first */
    public synchronized Set<String> values() {
        return new LinkedHashSet<>(values);
    }

    /**
     * @param text any text, or null
     * @return the text with every registered value replaced by {@link SecretKeys#MASK} (null stays null)
     */
    public synchronized String redact(String text) {
        if (text == null) {
            return null;
        }
        String t = text;
        for (String s : values) {
            if (t.contains(s)) {
                t = t.replace(s, SecretKeys.MASK);
            }
        }
        return t;
    }

    private static void sensitive(Map<String, String> config, Predicate<String> sensitiveKey, Set<String> out) {
        config.forEach((k, v) -> {
            if (sensitiveKey.test(k)) {
                collect(out, v);
            }
        });
    }

    private static void collect(Set<String> out, String value) {
        if (value == null || value.isBlank()) {
            return;
        }
        out.add(value);
        Matcher m = JAAS_OPTION.matcher(value);
        while (m.find()) {
            String option = m.group(1).toLowerCase(Locale.ROOT);
            if (option.contains("password") || option.contains("secret") || option.contains("token")
                    || option.contains("credential") || option.contains("key")) {
                collect(out, m.group(2));
            }
        }
    }
}
