package dev.flowform.config;

import java.nio.file.Path;

/**
 * Where an environment's Kubernetes API is: the user's kubeconfig, or the embedded demo cluster.
 */
public sealed interface KubernetesTarget {

    /**
     * Use a kubeconfig the way kubectl does.
     *
     * @param context    the kubeconfig context to use, or null for the current context
     * @param kubeconfig path of the kubeconfig file, or null for {@code $KUBECONFIG} / {@code ~/.kube/config}
     */
    record Kubeconfig(String context, String kubeconfig) implements KubernetesTarget {
    }

    /**
     * Start the embedded cluster (fabric8 mock API server plus the simulated Strimzi operator) in-process.
     *
     * @param seedDir           folder of YAML manifests loaded on first use (absolute), or null for an empty cluster
     * @param reconcileDelayMs  simulated operator delay before it acts on a change, in milliseconds, or null for the default
     * @param podReadyDelayMs   simulated time for a restarted worker pod to become Ready, in milliseconds, or null for the default
     */
    record Embedded(Path seedDir, Long reconcileDelayMs, Long podReadyDelayMs) implements KubernetesTarget {
    }
}
