package dev.flowform.apply;

import dev.flowform.live.LiveMapper;
import dev.flowform.live.StrimziResources;
import dev.flowform.locking.Sleeper;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.StrimziApi;
import dev.flowform.plan.FieldEdit;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FieldValidateable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Writes Strimzi objects with fabric8: edits by read-modify-write with the resourceVersion (409 re-applied, up to
 * {@value #MAX_ATTEMPTS} attempts), 429, 5xx and connection failures retried with capped back-off, creates and
 * updates with {@code fieldValidation=Strict} so a field Strimzi's schema drops is refused, not lost. No server-side
 * apply. {@link #dryRun(KubernetesClient)} sends everything with {@code dryRun=All} and never sleeps.
 */
public final class Fabric8ClusterWriter implements ClusterWriter {

    /** Attempts per request before giving up on a retryable error. */
    public static final int MAX_ATTEMPTS = 6;
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

    private final KubernetesClient client;
    private final Sleeper sleeper;
    private final boolean dryRun;

    /**
     * @param client  client for the target API server
     * @param sleeper used between retries
     */
    public Fabric8ClusterWriter(KubernetesClient client, Sleeper sleeper) {
        this(client, sleeper, false);
    }

    private Fabric8ClusterWriter(KubernetesClient client, Sleeper sleeper, boolean dryRun) {
        this.client = client;
        this.sleeper = sleeper;
        this.dryRun = dryRun;
    }

    /**
     * @param client client for the target API server
     * @return a writer whose every write is a server-side dry run ({@code dryRun=All}); {@link #generation} and the
     *         read of an edit are real reads
     */
    public static Fabric8ClusterWriter dryRun(KubernetesClient client) {
        return new Fabric8ClusterWriter(client, d -> { }, true);
    }

    @Override
    public long create(Map<String, Object> manifest) {
        GenericKubernetesResource r = Serialization.jsonMapper().convertValue(manifest, GenericKubernetesResource.class);
        ObjectRef ref = LiveMapper.ref(r);
        GenericKubernetesResource created = retrying(ref, "create", () -> writing(ref, r).create());
        return gen(created);
    }

    @Override
    public long patch(ObjectRef ref, List<FieldEdit> edits) {
        return retrying(ref, "update", () -> {
            GenericKubernetesResource current = ops(ref).withName(ref.name()).get();
            if (current == null) {
                throw new ApplyException(ref + " does not exist (deleted since the plan was made?)", false, null);
            }
            Map<String, Object> raw = LiveMapper.raw(current);
            if (!Edits.apply(raw, edits)) {
                return gen(current);
            }
            GenericKubernetesResource updated = Serialization.jsonMapper().convertValue(raw, GenericKubernetesResource.class);
            GenericKubernetesResource stored = writing(ref, updated).update();
            List<FieldEdit> dropped = Edits.notKept(LiveMapper.raw(stored), edits);
            if (!dropped.isEmpty()) {
                throw new ApplyException(notKept(ref, dropped.get(0)), false, null);
            }
            return gen(stored);
        });
    }

    /**
     * @return why a write whose field the server dropped fails: a structural CRD prunes what its schema does not define,
     *         such as {@code spec.state} of a KafkaConnector before Strimzi 0.38 (Strimzi proposal 054)
     */
    private static String notKept(ObjectRef ref, FieldEdit e) {
        String path = String.join(".", e.path());
        String value = e.sensitive() ? dev.flowform.model.SecretKeys.MASK : String.valueOf(e.value());
        return "the API server did not keep " + path + " = " + value + " in " + ref + ": the CustomResourceDefinition "
                + "installed on the cluster does not define the field, and the server dropped it"
                + (e.path().equals(List.of("spec", "state")) ? ". spec.state, which stops and starts a connector, "
                + "needs Strimzi 0.38 or newer; upgrade the operator and its CRDs, then run apply again" : "");
    }

    @Override
    public void delete(ObjectRef ref) {
        retrying(ref, "delete", () -> dryRun ? ops(ref).withName(ref.name()).dryRun().delete()
                : ops(ref).withName(ref.name()).delete());
    }

    @Override
    public long generation(ObjectRef ref) {
        GenericKubernetesResource current = retrying(ref, "read", () -> ops(ref).withName(ref.name()).get());
        if (current == null) {
            throw new ApplyException(ref + " does not exist", false, null);
        }
        return gen(current);
    }

    private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> all(
            ObjectRef ref) {
        StrimziApi api = StrimziApi.fromApiVersion(ref.apiVersion());
        if (api == null) {
            throw new ApplyException("unsupported apiVersion " + ref.apiVersion() + " for " + ref, false, null);
        }
        return client.genericKubernetesResources(StrimziResources.forKind(ref.kind(), api));
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> ops(ObjectRef ref) {
        return all(ref).inNamespace(ref.namespace());
    }

    /** @return the create or update of {@code r}: strict field validation, a dry run for a dry-run writer */
    private NonDeletingOperation<GenericKubernetesResource> writing(ObjectRef ref, GenericKubernetesResource r) {
        Resource<GenericKubernetesResource> resource = ops(ref).resource(r);
        return (dryRun ? resource.dryRun() : resource).fieldValidation(FieldValidateable.Validation.STRICT);
    }

    private static long gen(GenericKubernetesResource r) {
        Long g = r.getMetadata().getGeneration();
        return g == null ? 0 : g;
    }

    private <T> T retrying(ObjectRef ref, String verb, Supplier<T> call) {
        Duration backoff = FIRST_BACKOFF;
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (KubernetesClientException e) {
                int code = e.getCode();
                boolean conflict = code == 409 && !"create".equals(verb);
                boolean transientError = code == 429 || code >= 500 || code == 0;
                if ((!conflict && (!transientError || dryRun)) || attempt >= MAX_ATTEMPTS) {
                    throw new ApplyException("could not " + verb + " " + ref + ": " + describe(e)
                            + (attempt > 1 ? " (after " + attempt + " attempts)" : ""), conflict || transientError, e);
                }
                if (!conflict) {
                    try {
                        long jitter = ThreadLocalRandom.current().nextLong(backoff.toMillis() / 2 + 1);
                        sleeper.sleep(backoff.plusMillis(jitter));
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        throw new ApplyException("interrupted while retrying " + verb + " of " + ref, false, ie);
                    }
                    backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
                }
            }
        }
    }

    private static String describe(KubernetesClientException e) {
        String msg = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
        return (e.getCode() > 0 ? "HTTP " + e.getCode() + " " : "") + (msg == null ? e.getClass().getSimpleName() : msg);
    }
}
