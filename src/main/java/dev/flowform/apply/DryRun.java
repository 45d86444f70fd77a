package dev.flowform.apply;

import dev.flowform.model.ObjectRef;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepPayload;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;

/**
 * Sends a plan's writes to the API server as server-side dry runs ({@code dryRun=All}, Kubernetes API concepts,
 * "Dry-run") before any is made, so what it would refuse (Strimzi's schema, admission webhooks, RBAC) is known at plan
 * time. Each step goes through the {@link ClusterWriter} call the {@link Applier} makes, on the object as the step will
 * find it (earlier steps' edits applied); objects are checked concurrently, one object's steps in order until the
 * first refusal.
 */
public final class DryRun {
    /** The RBAC authorizer's words in a 403 (k8s.io/apiserver authorization: {@code cannot <verb> resource}). */
    private static final Pattern RBAC = Pattern.compile("cannot [a-z]+ resource \"");

    private final ClusterWriter writer;
    private final int parallelism;

    /**
     * @param writer      a dry-run writer, e.g. {@link Fabric8ClusterWriter#dryRun}
     * @param parallelism how many objects are checked at once, at least 1
     */
    public DryRun(ClusterWriter writer, int parallelism) {
        this.writer = writer;
        this.parallelism = Math.max(1, parallelism);
    }

    /** How a dry run of one step ended when it did not pass. */
    public enum Outcome {
        /** The API server refuses the write (schema, admission webhook, name taken, object gone): the apply would fail. */
        REFUSED,
        /** The dry run itself is not allowed: RBAC denies these credentials the verb, or a webhook cannot dry-run. */
        NOT_ALLOWED,
        /** No answer: the API server could not be reached or failed (5xx, 429, too many conflicts). */
        UNANSWERED
    }

    /**
     * One step whose dry run did not pass.
     *
     * @param step    the step
     * @param outcome what kind of failure
     * @param message the API server's words (HTTP status and message), for the user
     */
    public record Finding(Step step, Outcome outcome, String message) {
    }

    /**
     * @param steps a plan's steps, in plan order
     * @return the steps whose dry run did not pass, in plan order; empty when every write would be accepted
     * @throws IllegalStateException when interrupted while waiting for the checks
     */
    public List<Finding> check(List<Step> steps) {
        Map<String, List<Step>> byObject = new LinkedHashMap<>();
        for (Step s : steps) {
            if (s.kind().isMutation() && !(s.payload() instanceof StepPayload.WaitForRoll)
                    && !(s.payload() instanceof StepPayload.WaitForConnector)) {
                byObject.computeIfAbsent(key(s.object()), k -> new ArrayList<>()).add(s);
            }
        }
        if (byObject.isEmpty()) {
            return List.of();
        }
        List<Finding> out = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallelism, byObject.size()), r -> {
            Thread t = new Thread(r, "flowform-dry-run");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<List<Finding>>> results = new ArrayList<>();
            for (List<Step> chain : byObject.values()) {
                results.add(pool.submit(() -> checkObject(chain)));
            }
            for (Future<List<Finding>> f : results) {
                out.addAll(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while dry-running the plan", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the dry run failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        out.sort(java.util.Comparator.comparingInt(f -> f.step().id()));
        return out;
    }

    /** Dry-runs the steps of one object in plan order, up to the first that does not pass. */
    private List<Finding> checkObject(List<Step> chain) {
        Map<String, Object> created = null;
        boolean deleted = false;
        List<FieldEdit> edits = new ArrayList<>();
        for (Step s : chain) {
            try {
                StepPayload p = s.payload();
                if (p instanceof StepPayload.CreateObject c) {
                    created = c.manifest();
                    edits.clear();
                    createUnlessDeleted(created, deleted);
                } else if (p instanceof StepPayload.DeleteObject) {
                    if (created == null) {
                        writer.delete(s.object());
                    }
                    created = null;
                    deleted = true;
                } else {
                    edits.addAll(p instanceof StepPayload.SetWorkerEos w ? w.edits() : ((StepPayload.PatchObject) p).edits());
                    if (created != null) {
                        Map<String, Object> edited = new LinkedHashMap<>(created); // Edits copies what it changes below
                        Edits.apply(edited, edits);
                        createUnlessDeleted(edited, deleted);
                    } else {
                        writer.patch(s.object(), List.copyOf(edits));
                    }
                }
            } catch (ApplyException e) {
                return List.of(new Finding(s, outcome(e), e.getMessage()));
            } catch (IllegalArgumentException e) {
                return List.of(new Finding(s, Outcome.REFUSED, "the edits do not apply to " + s.object() + ": " + e.getMessage()));
            }
        }
        return List.of();
    }

    private void createUnlessDeleted(Map<String, Object> manifest, boolean deleted) {
        try {
            writer.create(manifest);
        } catch (ApplyException e) {
            if (!(deleted && e.getCause() instanceof KubernetesClientException k && k.getCode() == 409)) {
                throw e;
            }
        }
    }

    private static Outcome outcome(ApplyException e) {
        if (!(e.getCause() instanceof KubernetesClientException k)) {
            return Outcome.UNANSWERED;
        }
        String message = k.getStatus() != null && k.getStatus().getMessage() != null ? k.getStatus().getMessage()
                : String.valueOf(k.getMessage());
        int code = k.getCode();
        if (code == 403 && RBAC.matcher(message).find() || code == 400 && message.contains("does not support dry run")) {
            return Outcome.NOT_ALLOWED;
        }
        return e.retryable() || code == 0 ? Outcome.UNANSWERED : Outcome.REFUSED;
    }

    private static String key(ObjectRef r) {
        return r.kind() + " " + r.namespace() + "/" + r.name();
    }
}
