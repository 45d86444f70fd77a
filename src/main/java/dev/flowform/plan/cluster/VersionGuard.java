package dev.flowform.plan.cluster;

import dev.flowform.diag.Severity;
import dev.flowform.model.DesiredWorkers;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.plan.KafkaVersion;
import dev.flowform.plan.PlanOptions;
import dev.flowform.plan.Rule;
import java.util.Optional;

/**
 * The Kafka version preflight (rules {@link Rule#KAFKA_VERSION_WORKER}, {@link Rule#KAFKA_VERSION_MM2},
 * {@link Rule#KAFKA_VERSION_FENCING}, {@link Rule#KAFKA_VERSION_UNKNOWN}; docs/domain-rules.md): no exactly-once below
 * 3.3, none for MirrorMaker 2 below 3.5, a warning below 3.6. No version is the operator's default, unchecked; an
 * unreadable one needs {@link PlanOptions#acceptUnknownKafkaVersion()}. Pure.
 */
final class VersionGuard {

    private static final String MINIMUMS = "Below Kafka 3.3.0 the workers ignore exactly.once.source.support and nothing "
            + "runs exactly-once; below 3.5.0 Kafka rejects exactly.once.support=required on MirrorSourceConnector; below "
            + "3.6.0 zombie fencing can fail while a rebalance is pending (KAFKA-15059) and exactly-once tasks may fail to "
            + "start.";

    private VersionGuard() {
    }

    /**
     * Checks the version of a new cluster: the one the configuration declares.
     *
     * @return the verdict
     */
    static Verdict declared(ClusterFacts f) {
        return check(f, f.desired().version(), f.kind().block() + " declares version", "");
    }

    /**
     * Checks an existing cluster's version: declared, else {@code spec.version}, else what the workers report in
     * {@code status.connectorPlugins}; neither is the operator's default, unchecked.
     */
    static Verdict live(ClusterFacts f) {
        if (f.desired().version() != null) {
            return declared(f);
        }
        LiveConnectCluster c = f.existing().cluster();
        String who = f.existing().who();
        if (c.spec().get("version") != null) {
            return check(f, c.version(), who + " has spec.version", "");
        }
        if (c.spec().isEmpty()) {
            return unknown(f, who + " has no spec, so the Kafka version its workers run is unknown");
        }
        String reported = c.reportedKafkaVersion();
        if (reported != null && KafkaVersion.parse(reported).isPresent()) {
            return check(f, reported, who + "'s workers report version", " (spec.version is not set: the operator's "
                    + "default Kafka version, as status.connectorPlugins reports it)");
        }
        return Verdict.PASS;
    }

    /**
     * Checks {@code versionText} (null: not set) from {@code from} ({@code KafkaConnect ns/name has spec.version}), with
     * {@code note} after the version in messages (empty, or where a reported version comes from).
     */
    private static Verdict check(ClusterFacts f, String versionText, String from, String note) {
        Optional<KafkaVersion> parsed = KafkaVersion.parse(versionText);
        if (versionText != null && parsed.isEmpty()) {
            return unknown(f, from + " \"" + versionText + "\", which is not a Kafka version flowform can read "
                    + "(it expects <major>.<minor>.<patch>, e.g. 3.9.0)");
        }
        if (!f.exactlyOnceInvolved() || parsed.isEmpty()) {
            return Verdict.PASS;
        }
        DesiredWorkers dc = f.desired();
        boolean eosFlows = f.kind().exactlyOnceConnectors();
        KafkaVersion v = parsed.get();
        String cluster = f.kind().block() + " runs Kafka " + v.text()
                + (v.text().equals(v.kafka()) ? "" : " (Kafka " + v.kafka() + ")") + note;
        if (v.isBefore(3, 3)) {
            return Verdict.refuse(Rule.KAFKA_VERSION_WORKER.diagnostic(Severity.ERROR,
                    "Kafka version has no exactly-once source support", cluster + ", which has no "
                            + "exactly.once.source.support worker setting (KIP-618 arrived in Kafka 3.3.0). Upgrade the "
                            + "Connect cluster's spec.version first.", dc.range(), dc.address()));
        }
        if (eosFlows && v.isBefore(3, 5)) {
            return Verdict.refuse(Rule.KAFKA_VERSION_MM2.diagnostic(Severity.ERROR,
                    "MirrorMaker 2 has no exactly-once support before Kafka 3.5", cluster + "; MirrorSourceConnector "
                            + "implements KIP-618's exactlyOnceSupport only from Kafka 3.5.0, so exactly.once.support=required "
                            + "is rejected. Upgrade spec.version to 3.6 or newer, or set the " + (f.kind() instanceof ConnectKind ? "flows'"
                            : "mirrors'") + " exactly_once to false.",
                    dc.range(), dc.address()));
        }
        if (eosFlows && v.isBefore(3, 6)) {
            return Verdict.report(Rule.KAFKA_VERSION_FENCING.diagnostic(Severity.WARNING,
                    "Exactly-once MirrorMaker 2 before Kafka 3.6", cluster + ". Before Kafka 3.6.0 zombie fencing can fail "
                            + "while a rebalance is pending (KAFKA-15059), which MirrorMaker 2 triggers by writing its "
                            + "connector configs in quick succession: exactly-once tasks may fail to start. Upgrade to 3.6 or "
                            + "newer.", dc.range(), dc.address()));
        }
        return Verdict.PASS;
    }

    /**
     * The Kafka version cannot be read: exactly-once needs {@link PlanOptions#acceptUnknownKafkaVersion()}; without
     * exactly-once it is a warning.
     *
     * @param why what could not be read, a sentence without its full stop
     */
    private static Verdict unknown(ClusterFacts f, String why) {
        DesiredWorkers dc = f.desired();
        if (!f.exactlyOnceInvolved()) {
            return Verdict.report(Rule.KAFKA_VERSION_UNKNOWN.diagnostic(Severity.WARNING, "Kafka version unknown",
                    why + ". This plan does not turn exactly-once on, so nothing in it depends on the version; the "
                            + "KIP-618 minimums are checked once it does.", dc.range(), dc.address()));
        }
        if (!f.scope().options().acceptUnknownKafkaVersion()) {
            return Verdict.refuse(Rule.KAFKA_VERSION_UNKNOWN.diagnostic(Severity.ERROR, "Exactly-once on an unknown Kafka version",
                    why + ", so flowform cannot check the KIP-618 minimums. " + MINIMUMS + " Set the "
                            + f.kind().blockType() + "'s version to the Kafka version the workers run or, if you know it is 3.6 or newer, plan "
                            + "again with --accept-unknown-kafka-version.", dc.range(), dc.address()));
        }
        return Verdict.report(Rule.KAFKA_VERSION_UNKNOWN.diagnostic(Severity.WARNING, "Exactly-once on an unknown Kafka version",
                why + ". --accept-unknown-kafka-version was given: the KIP-618 minimums are not checked. " + MINIMUMS,
                dc.range(), dc.address()));
    }
}
