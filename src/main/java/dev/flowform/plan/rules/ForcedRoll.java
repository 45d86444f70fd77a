package dev.flowform.plan.rules;

import dev.flowform.model.Conditions;
import dev.flowform.model.Condition;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LivePod;
import dev.flowform.model.LivePodSet;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Readiness;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Strimzi 0.46-0.48 never rolls a KafkaMirrorMaker2's pods when its worker configuration changes: they lack the
 * configuration-hash annotation (Strimzi PR 11926, fixed in 0.49.0). Affected: a ConfigMap with the worker file and
 * pods none of which carries the hash (the image tag is reported as corroboration, {@link #strimziVersion}). Remedy:
 * the StrimziPodSet annotation {@code strimzi.io/manual-rolling-update="true"}, whose roll {@link #evaluate} waits for
 * (docs/domain-rules.md, 7a). Pure.
 */
public final class ForcedRoll {

    /** The value of {@link Strimzi#MANUAL_ROLLING_UPDATE_ANNOTATION} that asks for a roll. */
    public static final String REQUESTED = "true";

    /** Strimzi image tags: {@code <strimzi version>-kafka-<kafka version>}. */
    private static final Pattern IMAGE_TAG = Pattern.compile(":(\\d+\\.\\d+\\.\\d+)-kafka-[0-9.]+$");

    private ForcedRoll() {
    }

    /** @return true when the operator will not roll the pods of {@code workers} (a KafkaMirrorMaker2) on a change */
    public static boolean affected(LiveConnectCluster workers) {
        return workers.configMap() != null && workers.configMap().properties() != null && !workers.pods().isEmpty()
                && workers.pods().stream().allMatch(p -> p.configurationHash() == null);
    }

    /** @return the Strimzi release ({@code 0.48.0}) the image tag of a pod of {@code workers} names, if Strimzi-style */
    public static Optional<String> strimziVersion(LiveConnectCluster workers) {
        for (LivePod p : workers.pods()) {
            Matcher m = p.image() == null ? null : IMAGE_TAG.matcher(p.image());
            if (m != null && m.find()) {
                return Optional.of(m.group(1));
            }
        }
        return Optional.empty();
    }

    /** @return true when the StrimziPodSet of {@code workers} carries {@code strimzi.io/manual-rolling-update="true"} */
    public static boolean requested(LiveConnectCluster workers) {
        LivePodSet ps = workers.podSet();
        return ps != null && REQUESTED.equalsIgnoreCase(ps.annotations().get(Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION));
    }

    /**
     * Decides whether a forced roll is over, against one consistent read.
     *
     * @param workers      the KafkaMirrorMaker2 seen as its Connect cluster, with PodSet, pods and ConfigMap
     * @param annotatedAt  when flowform set the annotation, or null when not known (a resumed run): then the
     *                     operator's removal of the annotation is the only evidence that every pod was replaced
     * @param expectedMode the mode the ConfigMap must hold (so the new pods started with it), or null to skip
     * @return complete when the annotation is gone, every pod (as many as {@code spec.replicas}) is Ready, not
     *         terminating, on the PodSet's revision and created no earlier than the second of {@code annotatedAt}
     *         ({@code creationTimestamp} has whole seconds), the ConfigMap holds the mode, and the resource is
     *         {@code Ready=True}; failed when it is {@code NotReady}; paused when reconciliation is paused; else in
     *         progress with what is missing
     */
    public static Readiness evaluate(LiveConnectCluster workers, Instant annotatedAt, EosMode expectedMode) {
        if (workers.reconciliationPaused()) {
            return new Readiness.Paused("reconciliation of " + workers.name() + " is paused (strimzi.io/pause-reconciliation);"
                    + " the operator will not roll the pods");
        }
        int replicas = workers.replicas() == null ? RollCheck.STRIMZI_DEFAULT_REPLICAS : workers.replicas();
        Instant since = annotatedAt == null ? null : annotatedAt.truncatedTo(ChronoUnit.SECONDS);
        List<LivePod> rolled = workers.pods().stream().filter(p -> replaced(workers, p, since)).toList();
        String progress = rolled.size() + "/" + replicas + " pods restarted since the annotation";
        if (requested(workers)) {
            return new Readiness.InProgress(progress + "; " + Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION + " is still on "
                    + "StrimziPodSet " + (workers.podSet() == null ? "" : workers.podSet().ref().name())
                    + " (the operator removes it when every pod has rolled)", rolled.size(), replicas);
        }
        if (workers.pods().size() != replicas || rolled.size() != replicas) {
            return new Readiness.InProgress(progress + " (" + workers.pods().size() + " pods)", rolled.size(), replicas);
        }
        if (expectedMode != null && !RollCheck.mentionsMode(workers.configMap() == null ? null
                : workers.configMap().properties(), expectedMode)) {
            return new Readiness.InProgress("ConfigMap does not contain " + EosMode.CONFIG_KEY + "=" + expectedMode.value(),
                    rolled.size(), replicas);
        }
        Optional<Condition> notReady = Conditions.trueCondition(workers.conditions(), "NotReady");
        if (notReady.isPresent()) {
            return new Readiness.Failed("the operator reported NotReady" + (notReady.get().message() == null ? ""
                    : ": " + notReady.get().message()));
        }
        if (!Conditions.isTrue(workers.conditions(), "Ready")) {
            return new Readiness.InProgress(progress + ", waiting for condition Ready", rolled.size(), replicas);
        }
        return new Readiness.Complete(replicas + "/" + replicas + " pods restarted by the forced roll"
                + (expectedMode == null ? "" : " with " + EosMode.CONFIG_KEY + "=" + expectedMode.value()) + ", Ready");
    }

    private static boolean replaced(LiveConnectCluster workers, LivePod p, Instant since) {
        if (!p.ready() || p.terminating()) {
            return false;
        }
        if (workers.podSet() != null) {
            String want = workers.podSet().podRevisions().get(p.name());
            if (want == null || !want.equals(p.revision())) {
                return false;
            }
        }
        if (since == null) {
            return true;
        }
        try {
            return p.created() != null && !Instant.parse(p.created()).isBefore(since);
        } catch (DateTimeParseException e) {
            return false;
        }
    }
}
