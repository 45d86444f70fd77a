package dev.flowform.config;

import java.nio.file.Path;
import java.util.List;

/** Where an environment's Kubernetes API is: the user's kubeconfig, or the embedded demo cluster. */
public sealed interface KubernetesTarget {

    /**
     * Use a kubeconfig the way kubectl does: its {@code context} (null: the current one) in file {@code kubeconfig}
     * (null: {@code $KUBECONFIG}, else {@code ~/.kube/config}).
     */
    record Kubeconfig(String context, String kubeconfig) implements KubernetesTarget {
    }

    /**
     * Start the embedded cluster (fabric8 mock API server plus the simulated Strimzi operator) in-process.
     *
     * @param seedDir           folder of YAML manifests loaded on first use (absolute), or null for an empty cluster
     * @param reconcileDelayMs  simulated operator delay before it acts on a change, in milliseconds, or null for the default
     * @param podReadyDelayMs   simulated time for a restarted worker pod to become Ready, in milliseconds, or null for the default
     * @param kafka             real Kafka behind the embedded cluster: one embedded Kafka cluster per entry, and the
     *                          Connect workers as real processes; empty for the simulated Connect runtime
     * @param strimziVersion    the Strimzi release the simulated operator plays ({@code major.minor.patch}), or null for
     *                          the simulator's default; 0.46.x to 0.48.x reproduce KafkaMirrorMaker2 pods that are not
     *                          rolled on a worker configuration change (Strimzi PR 11926)
     */
    record Embedded(Path seedDir, Long reconcileDelayMs, Long podReadyDelayMs, List<EmbeddedKafka> kafka,
                    String strimziVersion) implements KubernetesTarget {
        /** Copies {@code kafka}; null means none. */
        public Embedded {
            kafka = kafka == null ? List.of() : List.copyOf(kafka);
        }

        /** With the simulator's default Strimzi release; the components are the record's. */
        public Embedded(Path seedDir, Long reconcileDelayMs, Long podReadyDelayMs, List<EmbeddedKafka> kafka) {
            this(seedDir, reconcileDelayMs, podReadyDelayMs, kafka, null);
        }

        /** Without real Kafka; the components are the record's. */
        public Embedded(Path seedDir, Long reconcileDelayMs, Long podReadyDelayMs) {
            this(seedDir, reconcileDelayMs, podReadyDelayMs, List.of());
        }
    }

    /**
     * One real Kafka cluster started for an embedded environment (block {@code kafka "<alias>"}).
     *
     * @param alias            the cluster's name, as MirrorMaker 2 aliases name it ({@code dc1})
     * @param bootstrapServers the addresses the seed and the configuration use for it ({@code host:port}); workers
     *                         and connectors configured with them reach the embedded cluster instead
     * @param topics           topics created before any worker starts
     * @param partitions       the number of partitions of each of them, at least 1
     */
    record EmbeddedKafka(String alias, List<String> bootstrapServers, List<String> topics, int partitions) {
        /** Copies the lists. */
        public EmbeddedKafka {
            bootstrapServers = List.copyOf(bootstrapServers);
            topics = List.copyOf(topics);
        }

        /** With topics of one partition. */
        public EmbeddedKafka(String alias, List<String> bootstrapServers, List<String> topics) {
            this(alias, bootstrapServers, topics, 1);
        }
    }
}
