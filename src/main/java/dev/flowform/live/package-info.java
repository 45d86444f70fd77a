/**
 * Reading the live cluster with fabric8: Strimzi KafkaConnect/KafkaConnector resources, their
 * StrimziPodSets, worker pods and Connect config maps, mapped to the {@code model} records.
 *
 * <p>Edge package: it talks to the Kubernetes API. It reads with one list request per kind and
 * namespace (never one request per object), detects which Strimzi API version the server serves
 * ({@code kafka.strimzi.io/v1} preferred over {@code v1beta2}) through API discovery, and uses
 * {@link io.fabric8.kubernetes.api.model.GenericKubernetesResource} so no Strimzi model jar (and its
 * Jackson 2) is needed.
 *
 * <p>Every object read also gets a content fingerprint ({@link dev.flowform.live.LiveMapper#fingerprint}),
 * which saved plans record and {@code apply FILE} compares; see the {@code dev.flowform.plan} package for why
 * fingerprints and not resourceVersions.
 */
package dev.flowform.live;
