package dev.flowform.plan.rules;

import dev.flowform.model.Conditions;
import dev.flowform.model.Condition;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LivePod;
import dev.flowform.model.LivePodSet;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Readiness;
import java.util.List;
import java.util.Optional;

/**
 * Decides whether Strimzi has finished rolling a Connect cluster's workers for a generation (rule 7 of
 * docs/domain-rules.md): {@code Ready} at the generation, the PodSet all current and ready, every pod Ready on its
 * revision, and the workers running the expected mode (ConfigMap and configuration hash, or the pods' environment
 * before Strimzi 0.46). observedGeneration alone is not enough: Strimzi writes it after a failed reconcile too.
 */
public final class RollCheck {

    /** Strimzi's default {@code spec.replicas} of a KafkaConnect when the field is absent. */
    public static final int STRIMZI_DEFAULT_REPLICAS = 3;

    private RollCheck() {
    }

    /**
     * Evaluates rule 7 against one consistent read of the cluster.
     *
     * @param c            the KafkaConnect with its PodSet, pods and ConfigMap
     * @param generation   the generation {@code G} the awaited change produced
     * @param expectedMode the EOS mode the workers must end up with, or null to skip that check
     * @return complete, in progress (with what is missing), failed (with the operator's message) or paused
     */
    public static Readiness evaluate(LiveConnectCluster c, long generation, EosMode expectedMode) {
        return evaluate(c, generation, expectedMode, true);
    }

    /**
     * Evaluates rule 7, optionally without the pods' configuration hash: for a KafkaMirrorMaker2 of Strimzi 0.46-0.48,
     * whose pods never carry one ({@link ForcedRoll}), the roll after a worker configuration change is only the
     * operator's reconcile (ConfigMap written, PodSet current, Ready); the pods restart through a forced roll.
     * {@code podHashes} false ignores {@code strimzi.io/configuration-hash} on the pods; the rest is as
     * {@link #evaluate(LiveConnectCluster, long, EosMode)}.
     */
    public static Readiness evaluate(LiveConnectCluster c, long generation, EosMode expectedMode, boolean podHashes) {
        String hash = podHashes ? configHash(c) : null;
        if (c.reconciliationPaused()) {
            return new Readiness.Paused("reconciliation of KafkaConnect " + c.name()
                    + " is paused (strimzi.io/pause-reconciliation); the operator will not roll the workers");
        }
        Long observed = c.observedGeneration();
        String genText = "observedGeneration " + (observed == null ? "none" : observed) + "/" + generation;
        int replicas = c.replicas() == null ? STRIMZI_DEFAULT_REPLICAS : c.replicas();
        if (observed == null || observed < generation) {
            int rolled = countRolled(c, hash, expectedMode);
            return new Readiness.InProgress(rolled + "/" + replicas + " workers on the new revision" + rolledNames(c, hash, expectedMode)
                    + ", " + genText, rolled, replicas);
        }
        Optional<Condition> notReady = Conditions.trueCondition(c.conditions(), "NotReady");
        if (notReady.isPresent()) {
            Condition n = notReady.get();
            return new Readiness.Failed("the operator reported NotReady at generation " + observed
                    + (n.reason() == null ? "" : " (" + n.reason() + ")")
                    + (n.message() == null ? "" : ": " + n.message()));
        }
        if (!Conditions.isTrue(c.conditions(), "Ready")) {
            return new Readiness.InProgress("waiting for condition Ready, " + genText, 0, replicas);
        }
        String podProblem = podProblem(c, replicas, hash, expectedMode);
        if (podProblem != null) {
            int rolled = countRolled(c, hash, expectedMode);
            return new Readiness.InProgress(rolled + "/" + replicas + " workers on the new revision" + rolledNames(c, hash, expectedMode)
                    + " (" + podProblem + "), " + genText, rolled, replicas);
        }
        return new Readiness.Complete(replicas + "/" + replicas + " workers on the new revision"
                + (expectedMode == null ? "" : " with " + EosMode.CONFIG_KEY + "=" + expectedMode.value())
                + ", " + genText + ", Ready");
    }

    /** @return null when the PodSet and pods satisfy rule 7, else a short reason */
    private static String podProblem(LiveConnectCluster c, int replicas, String expectedHash, EosMode expectedMode) {
        LivePodSet ps = c.podSet();
        if (ps != null) {
            if (ps.observedGeneration() == null || ps.observedGeneration() < ps.generation()) {
                return "StrimziPodSet " + ps.ref().name() + " has not observed generation " + ps.generation();
            }
            if (!eq(ps.pods(), replicas) || !eq(ps.readyPods(), replicas) || !eq(ps.currentPods(), replicas)
                    || ps.podRevisions().size() != replicas) {
                return "StrimziPodSet reports pods=" + ps.pods() + " readyPods=" + ps.readyPods()
                        + " currentPods=" + ps.currentPods() + " of " + replicas;
            }
        } else if (replicas > 0 && c.pods().isEmpty()) {
            return "no StrimziPodSet " + Strimzi.podSetName(c.name()) + " and no worker pods";
        }
        List<LivePod> live = c.pods().stream().filter(p -> !p.terminating()).toList();
        if (live.size() != replicas || c.pods().size() != replicas) {
            return c.pods().size() + " worker pods, " + replicas + " expected";
        }
        for (LivePod p : c.pods()) {
            if (!podRolled(c, p, expectedHash, expectedMode)) {
                return "pod " + p.name() + (p.ready() ? " not on the new revision" : " not Ready");
            }
        }
        if (expectedMode != null && c.configMap() != null && !mentionsMode(c.configMap().properties(), expectedMode)) {
            return "ConfigMap " + c.configMap().ref().name() + " does not contain "
                    + EosMode.CONFIG_KEY + "=" + expectedMode.value();
        }
        return null;
    }

    /** @return {@code " (rolled: a, b)"} naming the pods already on the new revision, or empty */
    private static String rolledNames(LiveConnectCluster c, String hash, EosMode expectedMode) {
        List<String> names = c.pods().stream().filter(p -> podRolled(c, p, hash, expectedMode)).map(LivePod::name).toList();
        return names.isEmpty() ? "" : " (rolled: " + String.join(", ", names) + ")";
    }

    private static int countRolled(LiveConnectCluster c, String hash, EosMode expectedMode) {
        return (int) c.pods().stream().filter(p -> podRolled(c, p, hash, expectedMode)).count();
    }

    private static boolean podRolled(LiveConnectCluster c, LivePod p, String expectedHash, EosMode expectedMode) {
        if (!p.ready() || p.terminating()) {
            return false;
        }
        if (c.podSet() != null) {
            String want = c.podSet().podRevisions().get(p.name());
            if (want == null || !want.equals(p.revision())) {
                return false;
            }
        }
        if (expectedHash != null) {
            return expectedHash.equals(p.configurationHash());
        }
        if (expectedMode != null && p.connectConfiguration() != null) {
            return mentionsMode(p.connectConfiguration(), expectedMode);
        }
        return true;
    }

    /**
     * @return the expected {@code strimzi.io/configuration-hash}: the first 8 hex characters of the
     *         SHA-1 of the ConfigMap's {@code kafka-connect.properties} (Strimzi 0.46+), or null when there is
     *         no such ConfigMap
     */
    public static String configHash(LiveConnectCluster c) {
        if (c.configMap() == null || c.configMap().properties() == null) {
            return null;
        }
        return Strimzi.sha1Prefix(c.configMap().properties());
    }

    /**
     * @return true when the worker properties text sets {@code exactly.once.source.support} to {@code mode}
     *         (absence counts as {@code disabled}, Kafka's default)
     */
    public static boolean mentionsMode(String properties, EosMode mode) {
        if (properties == null) {
            return mode == EosMode.DISABLED;
        }
        String found = null;
        for (String line : properties.split("\\R")) {
            String t = line.trim();
            if (t.startsWith(EosMode.CONFIG_KEY)) {
                String rest = t.substring(EosMode.CONFIG_KEY.length()).trim();
                if (rest.startsWith("=") || rest.startsWith(":")) {
                    found = rest.substring(1).trim();
                }
            }
        }
        return EosMode.parse(found).map(m -> m == mode).orElse(false);
    }

    private static boolean eq(Integer a, int b) {
        return a != null && a == b;
    }
}
