package dev.flowform.plan.cluster;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Rule;
import dev.flowform.plan.rules.ConnectorRules;
import dev.flowform.plan.rules.ForcedRoll;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What is found about a KafkaMirrorMaker2's mirrors: the refusals, then warnings about exactly-once settings a live
 * resource holds where MirrorMaker 2 ignores them ({@code isolation.level} in a cluster entry, rule
 * {@code mm2-read-committed}; {@code exactly.once.support} on a checkpoint connector, rule
 * {@code required-on-source-only}; docs/mirrormaker2.md). Pure.
 */
final class MirrorFindings {

    private MirrorFindings() {
    }

    /**
     * @return the first refusal of: an exactly-once mirror on workers that are not to run {@code enabled} (rule 3), a
     *         source connector that requires exactly-once under workers whose mode is to rise, a renamed target alias
     *         that cannot be planned ({@link MirrorTargetRename}), a mirror to add without bootstrap servers; or nothing
     */
    static List<Diagnostic> refusals(ClusterFacts f, MirrorMakerKind k) {
        DesiredMirrorMaker2 dm = k.desired();
        String who = k.who();
        for (DesiredMirror m : dm.mirrors()) {
            if (m.exactlyOnce() && dm.eos() != EosMode.ENABLED) {
                return List.of(Rule.REQUIRED_AFTER_ENABLED.error("Exactly-once mirror on workers that are not enabled",
                        "Mirror " + m.sourceAlias() + " of " + dm.address() + " wants exactly-once, but the workers are to run "
                                + EosMode.CONFIG_KEY + "=" + dm.eos().value() + ": Kafka rejects exactly.once.support=required "
                                + "unless the worker runs enabled.", dm.address()));
            }
        }
        if (k.live() == null) {
            return List.of();
        }
        List<Diagnostic> early = requiredTooEarly(f, k, who);
        if (!early.isEmpty()) {
            return early;
        }
        if (k.renamed() && !MirrorTargetRename.refusal(f, k, who).isEmpty()) {
            return MirrorTargetRename.refusal(f, k, who);
        }
        if (!k.set().unaddable().isEmpty()) {
            return List.of(Rule.CONFIGURATION.error("Mirror not found", who + " has no mirror from source alias(es) "
                    + String.join(", ", k.set().unaddable()) + " (spec.mirrors[]." + (k.v1() ? "source.alias" : "sourceCluster")
                    + "), and the configuration declares no bootstrap_servers for it, which a new mirror needs. Declare "
                    + "the source's bootstrap_servers to add it.", dm.address()));
        }
        return List.of();
    }

    /** @return the refusal of raising the workers' mode under a source connector that requires exactly-once already */
    private static List<Diagnostic> requiredTooEarly(ClusterFacts f, MirrorMakerKind k, String who) {
        EosMode current = f.existing().current();
        List<String> early = k.live().mirrors().stream()
                .filter(m -> ConnectorRules.isRequired(m.sourceConfig().get(ConnectorRules.EXACTLY_ONCE_SUPPORT)))
                .map(LiveMirrorMaker2.Mirror::source).toList();
        if (current != EosMode.ENABLED && f.upgrade() && !early.isEmpty()) {
            return List.of(Rule.REQUIRED_AFTER_ENABLED.error("Source connector requires exactly-once on workers that are "
                    + "not enabled", who + ": spec.mirrors" + MirrorWork.mirrorSelector(k.v1(), String.join(", ", early))
                    + ".sourceConnector.config sets exactly.once.support=required while the workers run "
                    + current.value() + "; Kafka Connect rejects that configuration, and raising the workers' mode under it is "
                    + "not the KIP-618 order. Remove it first: plan with exactly_once = false and exactly_once_source_support = \""
                    + current.value() + "\", then turn exactly-once on again.", k.address()));
        }
        return List.of();
    }

    /** @return the warnings, clusters first, then mirrors, in spec order */
    static List<Diagnostic> of(LiveMirrorMaker2 live, DesiredMirrorMaker2 dm) {
        List<Diagnostic> out = new ArrayList<>();
        String who = "KafkaMirrorMaker2 " + live.namespace() + "/" + live.name();
        if (dm.mirrors().stream().anyMatch(DesiredMirror::exactlyOnce)) {
            for (Object o : clusters(live)) {
                if (o instanceof Map<?, ?> c && c.get("config") instanceof Map<?, ?> config) {
                    for (Object key : config.keySet()) {
                        if (String.valueOf(key).endsWith("isolation.level")) {
                            out.add(Rule.READ_COMMITTED.warning("isolation.level where MirrorMaker 2 drops it", who
                                    + " sets \"" + key + "\" in the config of cluster " + c.get("alias") + "; MirrorMaker 2 drops "
                                    + "it (only client connection keys of a cluster entry reach its consumers). flowform sets "
                                    + ConnectorRules.SOURCE_ISOLATION_LEVEL + "=read_committed in sourceConnector.config.",
                                    dm.address()));
                        }
                    }
                }
            }
        }
        for (LiveMirrorMaker2.Mirror m : live.mirrors()) {
            if (m.checkpointConfig().containsKey(ConnectorRules.EXACTLY_ONCE_SUPPORT)) {
                out.add(Rule.REQUIRED_SOURCE_ONLY.warning("exactly.once.support on the checkpoint connector", who + " sets "
                        + "exactly.once.support in spec.mirrors" + MirrorWork.mirrorSelector(live.v1Layout(), m.source())
                        + ".checkpointConnector.config; "
                        + "MirrorCheckpointConnector rejects required. The plan removes it.", dm.address()));
            }
        }
        return out;
    }

    /**
     * The warning of a mirror's source alias renamed (rule {@code mm2-alias-rename}): new connectors without offsets
     * copy what the source retains again, and exactly-once tasks get new transactional IDs (docs/mirrormaker2.md).
     *
     * @return one warning per rename ({@code renamed}: old source alias to new)
     */
    static List<Diagnostic> renamed(LiveMirrorMaker2 live, DesiredMirrorMaker2 dm, Map<String, String> renamed) {
        List<Diagnostic> out = new ArrayList<>();
        renamed.forEach((from, to) -> {
            String t = live.target();
            boolean eos = dm.mirrors().stream().anyMatch(m -> m.sourceAlias().equals(to) && m.exactlyOnce());
            out.add(Rule.MIRROR_ALIAS_RENAME.warning("Source alias renamed: its connectors are replaced", "KafkaMirrorMaker2 "
                    + live.namespace() + "/" + live.name() + ": renaming source alias " + from + " to " + to + " makes "
                    + "Strimzi delete " + from + "->" + t + ".* and create " + to + "->" + t + ".*. The new "
                    + "MirrorSourceConnector finds no committed offsets (Kafka Connect keys them by connector name, and "
                    + "MirrorMaker 2's source partition names the source alias), so it starts every source partition at "
                    + "auto.offset.reset (MirrorMaker 2's default: earliest) and copies every retained record again: into "
                    + "new remote topics " + to + ".<topic> under the DefaultReplicationPolicy (" + from + ".<topic> is no "
                    + "longer written), or as duplicates into the same topics under the IdentityReplicationPolicy. "
                    + "Consumer-group checkpoints start again in " + to + ".checkpoints.internal."
                    + (eos ? " Its tasks write with new transactional IDs <group.id>-" + to + "->" + t
                    + ".MirrorSourceConnector-<task>: grant Write and Describe on them before applying." : ""),
                    dm.address()));
        });
        return out;
    }

    /**
     * @return the warning that says why the plan forces rolls ({@link ForcedRoll#affected}): Strimzi 0.46-0.48 never
     *         roll the pods on a worker configuration change, so the mode would not reach the workers although the
     *         resource says Ready
     */
    static Diagnostic forcedRoll(LiveMirrorMaker2 live, DesiredMirrorMaker2 dm) {
        String version = ForcedRoll.strimziVersion(live.workers()).map(v -> "; its pods run the image of Strimzi " + v)
                .orElse("");
        return Rule.MM2_FORCED_ROLL.warning("The operator does not roll KafkaMirrorMaker2 pods on a configuration change",
                "KafkaMirrorMaker2 " + live.namespace() + "/" + live.name() + ": ConfigMap "
                        + MirrorMaker2Names.configMapName(live.name()) + " holds the worker "
                        + "configuration but no pod carries " + Strimzi.CONFIG_HASH_ANNOTATION
                        + version + ". That is Strimzi 0.46 to 0.48, which never roll these pods when the worker "
                        + "configuration changes (fixed in 0.49.0 by PR 11926), so a new " + EosMode.CONFIG_KEY
                        + " would not reach the workers while the resource says Ready. After each worker configuration "
                        + "step the plan annotates StrimziPodSet "
                        + MirrorMaker2Names.podSetName(live.name()) + " "
                        + Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION + "=\"true\" and waits until "
                        + "every pod has restarted after it. Upgrading the operator to 0.49 or later removes the need.",
                dm.address());
    }

    /** @return the cluster entries: {@code spec.clusters[]}, or in {@code v1} the target and each mirror's source */
    private static List<?> clusters(LiveMirrorMaker2 live) {
        Map<String, Object> spec = live.workers().spec();
        if (!live.v1Layout()) {
            return spec.get("clusters") instanceof List<?> l ? l : List.of();
        }
        List<Object> out = new ArrayList<>();
        out.add(spec.get("target"));
        live.mirrors().forEach(m -> out.add(m.raw().get("source")));
        return out;
    }
}
