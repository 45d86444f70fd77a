package dev.flowform.run;

import dev.flowform.config.KubernetesTarget;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fabric8 configuration of an environment on a kubeconfig, resolved the way kubectl finds it (the
 * environment's {@code kubeconfig}, else {@code $KUBECONFIG}, else {@code ~/.kube/config}, else the pod's
 * service account), with one difference: nothing is ever guessed. A named kubeconfig file that does not
 * exist, a named context the kubeconfig does not define, or a kubeconfig without a usable current
 * context is an error naming the file and the contexts it does define; fabric8 would silently fall back
 * to the current context or to {@code https://kubernetes.default.svc}.
 *
 * @param config      the fabric8 configuration, with a connection timeout of {@link #CONNECT_TIMEOUT_MS}
 * @param context     the kubeconfig context in use, or null for the pod's service account
 * @param source      where the configuration came from: the kubeconfig file(s), or the service account
 */
record KubeconfigTarget(Config config, String context, String source) {

    /** How long opening a TCP connection to the API server may take, in milliseconds. */
    static final int CONNECT_TIMEOUT_MS = 5_000;

    /** A kubeconfig that cannot be used: printed as one error, nothing is contacted. */
    static final class Unusable extends RuntimeException {
        private final String summary;

        Unusable(String summary, String detail) {
            super(detail, null, false, false);
            this.summary = summary;
        }

        /** @return the error's summary line */
        String summary() {
            return summary;
        }
    }

    /**
     * Resolves the configuration of {@code k}.
     *
     * @param k   the environment's kubernetes block
     * @param env the environment's name, for messages
     * @param vars the process environment ({@code KUBECONFIG}, {@code KUBERNETES_SERVICE_HOST})
     * @return the configuration, its context and where it came from
     * @throws Unusable when a named file or context is missing, or the kubeconfig has no current context
     */
    static KubeconfigTarget resolve(KubernetesTarget.Kubeconfig k, String env, Map<String, String> vars) {
        String kubeconfigVar = vars.get("KUBECONFIG");
        Path home = Path.of(System.getProperty("user.home"), ".kube", "config");
        List<Path> files;
        Config config;
        if (k.kubeconfig() != null) {
            Path path = Path.of(k.kubeconfig());
            readNamed(path, env);
            files = List.of(path);
            config = KubeconfigFiles.read(k.context(), files, false);
        } else if (kubeconfigVar != null && !kubeconfigVar.isBlank()) {
            files = fromVariable(kubeconfigVar, env);
            config = KubeconfigFiles.read(k.context(), files, true);
        } else if (Files.exists(home)) {
            files = List.of(home);
            config = KubeconfigFiles.read(k.context(), files, true);
        } else if (vars.get("KUBERNETES_SERVICE_HOST") != null) {
            return serviceAccount(k, env, home);
        } else {
            throw new Unusable("No Kubernetes cluster configured",
                    "The environment uses the kubeconfig, but neither $KUBECONFIG nor ~/.kube/config exists. Point "
                            + "KUBECONFIG at your cluster, or give the environment \"kubernetes\": {\"embedded\": "
                            + "{\"seed\": \"./seed\"}} to use the embedded demo cluster.");
        }
        return withContext(k, env, files, config);
    }

    /** Checks that the kubeconfig file the environment names can be read: a clear error otherwise. */
    private static void readNamed(Path path, String env) {
        try {
            Files.readString(path);
        } catch (NoSuchFileException e) {
            throw new Unusable("Kubeconfig file not found", "Environment \"" + env + "\" names kubeconfig \"" + path
                    + "\"" + absolute(path) + ", which does not exist. Nothing was contacted.");
        } catch (IOException e) {
            throw new Unusable("Cannot read kubeconfig", "The environment names kubeconfig \"" + path
                    + "\", which cannot be read: " + e.getMessage());
        }
    }

    /** @return the files {@code $KUBECONFIG} lists, all of which must exist */
    private static List<Path> fromVariable(String kubeconfigVar, String env) {
        List<Path> files = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String part : kubeconfigVar.split(File.pathSeparator)) {
            if (part.isBlank()) {
                continue;
            }
            Path p = Path.of(part);
            files.add(p);
            if (!Files.isRegularFile(p)) {
                missing.add("\"" + p + "\"");
            }
        }
        if (!missing.isEmpty()) {
            throw new Unusable("Kubeconfig file not found", "$KUBECONFIG names " + String.join(", ", missing)
                    + (missing.size() == 1 ? ", which does not exist" : ", which do not exist") + " (environment \""
                    + env + "\" uses the kubeconfig). Nothing was contacted: flowform does not fall back to another "
                    + "kubeconfig. Point KUBECONFIG at an existing file.");
        }
        return files;
    }

    /** @return the pod's service account, which has no contexts to name */
    private static KubeconfigTarget serviceAccount(KubernetesTarget.Kubeconfig k, String env, Path home) {
        if (k.context() != null) {
            throw new Unusable("Kubernetes context \"" + k.context() + "\" not found", "Environment \"" + env
                    + "\" names context \"" + k.context() + "\", but there is no kubeconfig: neither $KUBECONFIG nor "
                    + home + " exists (only the pod's service account, which has no contexts).");
        }
        Config config = Config.autoConfigure(null);
        config.setConnectionTimeout(CONNECT_TIMEOUT_MS);
        return new KubeconfigTarget(config, null, "the pod's service account");
    }

    /** @return {@code config} once its context is the one named, or a usable current one when none is named */
    private static KubeconfigTarget withContext(KubernetesTarget.Kubeconfig k, String env, List<Path> files, Config config) {
        String where = files.size() == 1 ? "kubeconfig " + files.get(0) : "kubeconfig files " + String.join(", ",
                files.stream().map(Path::toString).toList());
        List<String> names = config.getContexts() == null ? List.of()
                : config.getContexts().stream().map(NamedContext::getName).toList();
        NamedContext current = config.getCurrentContext();
        String contexts = names.isEmpty() ? "It defines no contexts."
                : "It defines " + String.join(", ", names.stream().map(n -> "\"" + n + "\"").toList()) + ".";
        if (k.context() != null && (!names.contains(k.context()) || current == null || !k.context().equals(current.getName()))) {
            throw new Unusable("Kubernetes context \"" + k.context() + "\" not found", "Environment \"" + env
                    + "\" names context \"" + k.context() + "\", which " + where + " does not define. " + contexts
                    + " Nothing was contacted: flowform never falls back to another context. Fix \"context\" in the "
                    + "environment's kubernetes block, or the kubeconfig.");
        }
        if (current == null || current.getName() == null || !names.contains(current.getName())) {
            throw new Unusable("No current Kubernetes context", "Environment \"" + env + "\" names no context, and "
                    + where + " sets no usable current-context. " + contexts + " Nothing was contacted: flowform does "
                    + "not guess a cluster. Set \"context\" in the environment's kubernetes block.");
        }
        config.setConnectionTimeout(CONNECT_TIMEOUT_MS);
        return new KubeconfigTarget(config, current.getName(), where);
    }

    private static String absolute(Path path) {
        return path.isAbsolute() ? "" : " (" + path.toAbsolutePath().normalize() + ")";
    }

    /** @return how the target is shown before connecting: context and where it came from */
    String describe() {
        return context == null ? "service account of this pod" : "context \"" + context + "\" from " + source;
    }
}
