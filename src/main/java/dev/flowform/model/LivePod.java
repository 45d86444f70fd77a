package dev.flowform.model;

/**
 * A Connect worker pod, reduced to what roll detection needs (docs/domain-rules.md, section 7).
 *
 * @param name                  pod name, e.g. {@code west-connect-0}
 * @param uid                   {@code metadata.uid}; changes when the pod is re-created
 * @param revision              annotation {@code strimzi.io/revision}, or null
 * @param configurationHash     annotation {@code strimzi.io/configuration-hash} (Strimzi 0.46+), or null
 * @param ready                 condition Ready is True
 * @param terminating           {@code metadata.deletionTimestamp} is set
 * @param connectConfiguration  env var {@code KAFKA_CONNECT_CONFIGURATION} of the Connect container
 *                              (Strimzi 0.45 and older), or null
 * @param image                 the first container's image (Strimzi's own is {@code quay.io/strimzi/kafka:<strimzi
 *                              version>-kafka-<kafka version>}), or null
 * @param created               {@code metadata.creationTimestamp} as written (RFC 3339, whole seconds), or null
 */
public record LivePod(
        String name,
        String uid,
        String revision,
        String configurationHash,
        boolean ready,
        boolean terminating,
        String connectConfiguration,
        String image,
        String created) {

    /** A pod whose image and creation time are not known; the other components are the record's. */
    public LivePod(String name, String uid, String revision, String configurationHash, boolean ready, boolean terminating,
                   String connectConfiguration) {
        this(name, uid, revision, configurationHash, ready, terminating, connectConfiguration, null, null);
    }
}
