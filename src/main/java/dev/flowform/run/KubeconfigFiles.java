package dev.flowform.run;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.kubernetes.api.model.AuthInfo;
import io.fabric8.kubernetes.api.model.Cluster;
import io.fabric8.kubernetes.api.model.Context;
import io.fabric8.kubernetes.api.model.NamedAuthInfo;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.api.model.Preferences;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import io.fabric8.kubernetes.client.utils.Utils;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads kubeconfig files into a fabric8 {@link Config} as {@code Config.autoConfigure} does (per-file relative paths,
 * {@link KubeConfigUtils#merge}, the {@code kubernetes.*} overrides), except that the {@code extensions} entries are
 * left out: fabric8 would type them as any resource and load every resource class before the first request
 * (docs/architecture.md, "Start-up").
 */
final class KubeconfigFiles {

    /** fabric8's keys (in {@code KubeConfigUtils}) under which each entry remembers its file. */
    private static final String CONTEXT_FILE = "KUBERNETES_CONFIG_CONTEXT_FILE_KEY";
    private static final String CLUSTER_FILE = "KUBERNETES_CONFIG_CLUSTER_FILE_KEY";
    private static final String AUTH_INFO_FILE = "KUBERNETES_CONFIG_AUTH_INFO_FILE_KEY";

    /** A mapper for the kubeconfig model that skips its {@code extensions}. */
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .addMixIn(io.fabric8.kubernetes.api.model.Config.class, WithoutExtensions.class)
            .addMixIn(Cluster.class, WithoutExtensions.class)
            .addMixIn(Context.class, WithoutExtensions.class)
            .addMixIn(AuthInfo.class, WithoutExtensions.class)
            .addMixIn(Preferences.class, WithoutExtensions.class)
            .build();

    @JsonIgnoreProperties({"extensions"})
    private interface WithoutExtensions {
    }

    private KubeconfigFiles() {
    }

    /**
     * Builds the configuration of {@code files}, as fabric8 does for the same files.
     *
     * @param context       the context to use, or null for the files' current context
     * @param files         the kubeconfig files, first one first (as {@code $KUBECONFIG} lists them); each exists
     * @param autoConfigure true for the files kubectl finds ({@code $KUBECONFIG}, {@code ~/.kube/config}), as
     *                      fabric8's {@code Config.autoConfigure} marks them (the client re-reads them when a token
     *                      expires); false for a file the environment names
     * @return the configuration
     * @throws KubeconfigTarget.Unusable when a file cannot be read or is not a kubeconfig
     */
    static Config read(String context, List<Path> files, boolean autoConfigure) {
        io.fabric8.kubernetes.api.model.Config[] parsed = new io.fabric8.kubernetes.api.model.Config[files.size()];
        for (int i = 0; i < parsed.length; i++) {
            parsed[i] = parse(files.get(i));
        }
        Config config = Config.empty();
        KubeConfigUtils.merge(config, context, parsed);
        if (!Utils.getSystemPropertyOrEnvVar(Config.KUBERNETES_DISABLE_AUTO_CONFIG_SYSTEM_PROPERTY, false)) {
            Config.configFromSysPropsOrEnvVars(config);
        }
        if (autoConfigure) {
            config.setAutoConfigure(true);
        }
        return config;
    }

    /** @return the kubeconfig model of {@code path}, each entry remembering its file */
    private static io.fabric8.kubernetes.api.model.Config parse(Path path) {
        io.fabric8.kubernetes.api.model.Config parsed;
        try {
            Object yaml = new Load(LoadSettings.builder().build()).loadFromString(java.nio.file.Files.readString(path));
            parsed = yaml == null ? new io.fabric8.kubernetes.api.model.Config()
                    : MAPPER.convertValue(yaml, io.fabric8.kubernetes.api.model.Config.class);
        } catch (IOException e) {
            throw new KubeconfigTarget.Unusable("Cannot read kubeconfig", "Kubeconfig \"" + path
                    + "\" cannot be read: " + e.getMessage());
        } catch (RuntimeException e) {
            throw new KubeconfigTarget.Unusable("Invalid kubeconfig", "Kubeconfig \"" + path
                    + "\" is not a kubeconfig file: " + firstLine(e.getMessage()));
        }
        var file = path.toFile();
        if (parsed.getContexts() != null) {
            for (NamedContext c : parsed.getContexts()) {
                c.getAdditionalProperties().put(CONTEXT_FILE, file);
            }
        }
        if (parsed.getClusters() != null) {
            for (NamedCluster c : parsed.getClusters()) {
                c.getAdditionalProperties().put(CLUSTER_FILE, file);
            }
        }
        if (parsed.getUsers() != null) {
            for (NamedAuthInfo u : parsed.getUsers()) {
                u.getAdditionalProperties().put(AUTH_INFO_FILE, file);
            }
        }
        return parsed;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
