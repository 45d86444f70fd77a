package dev.flowform.cli;

import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveState;
import dev.flowform.model.SecretKeys;
import io.fabric8.kubernetes.client.Config;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Collects the secret strings a run may come across, so the {@link Terminal} can remove them from
 * every line and the state journal from every detail it stores: values of sensitive connector and
 * worker keys (desired and live), the secret options inside JAAS configurations (a password can show
 * up alone in an error message), and the credentials of the kubeconfig in use.
 */
final class SecretValues {

    /** JAAS option {@code name="value"} (Kafka's {@code sasl.jaas.config} syntax). */
    private static final Pattern JAAS_OPTION = Pattern.compile("([A-Za-z0-9_.-]+)\\s*=\\s*\"([^\"]*)\"");

    private SecretValues() {
    }

    /** @return the values of sensitive keys of every desired cluster and connector */
    static Set<String> of(DesiredState desired) {
        Set<String> out = new LinkedHashSet<>();
        for (DesiredConnectCluster c : desired.clusters()) {
            c.config().forEach((k, v) -> {
                if (c.isSensitive(k)) {
                    add(out, v);
                }
            });
        }
        for (DesiredFlow f : desired.flows()) {
            for (DesiredConnector d : f.connectors()) {
                d.config().forEach((k, v) -> {
                    if (d.isSensitive(k)) {
                        add(out, v);
                    }
                });
            }
        }
        return out;
    }

    /** @return the values of sensitive keys of every live cluster and connector */
    static Set<String> of(LiveState live) {
        Set<String> out = new LinkedHashSet<>();
        for (LiveConnectCluster c : live.clusters()) {
            sensitive(c.config(), out);
        }
        for (LiveConnector c : live.connectors()) {
            sensitive(c.config(), out);
        }
        return out;
    }

    /** @return the token, password, client key and auth-provider settings of a kubeconfig */
    static Set<String> of(Config config) {
        Set<String> out = new LinkedHashSet<>();
        add(out, config.getOauthToken());
        add(out, config.getPassword());
        add(out, config.getClientKeyData());
        add(out, config.getClientKeyPassphrase());
        if (config.getAuthProvider() != null && config.getAuthProvider().getConfig() != null) {
            config.getAuthProvider().getConfig().values().forEach(v -> add(out, v));
        }
        return out;
    }

    private static void sensitive(Map<String, String> config, Set<String> out) {
        config.forEach((k, v) -> {
            if (SecretKeys.isSensitive(k)) {
                add(out, v);
            }
        });
    }

    private static void add(Set<String> out, String value) {
        if (value == null || value.isBlank()) {
            return;
        }
        out.add(value);
        Matcher m = JAAS_OPTION.matcher(value);
        while (m.find()) {
            String option = m.group(1).toLowerCase(Locale.ROOT);
            if (option.contains("password") || option.contains("secret") || option.contains("token")
                    || option.contains("credential") || option.contains("key")) {
                add(out, m.group(2));
            }
        }
    }
}
