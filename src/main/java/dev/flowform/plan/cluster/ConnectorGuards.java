package dev.flowform.plan.cluster;

import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.plan.Rule;
import dev.flowform.plan.rules.ConnectorRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Guards on the connectors of a cluster. Pure. */
final class ConnectorGuards {

    private ConnectorGuards() {
    }

    /**
     * Reports what was found about the desired connectors ({@link ConnectorFacts}): the rules of
     * {@link ConnectorRules}, adopted connectors that do not exist and connectors of another cluster
     * ({@link Rule#CONFIGURATION}), FAILED connectors ({@link Rule#CONNECTOR_FAILED}). An error leaves only its
     * connector out of a KafkaConnect's plan; a KafkaMirrorMaker2's mirrors are one object, refused as a whole.
     */
    static Verdict findings(ClusterFacts f) {
        return f.kind().connectors(f);
    }

    /**
     * Connectors on the cluster that no flow of the configuration produces keep running; when they require
     * exactly-once support and the workers are going below enabled, they would break ({@link Rule#REVERSE_DISABLE},
     * rule 5): refused.
     */
    static Verdict unmanagedRequired(ClusterFacts f) {
        if (f.desired().eos() == EosMode.ENABLED || !(f.kind() instanceof ConnectKind k)) {
            return Verdict.PASS; // a KafkaMirrorMaker2's connectors are all its mirrors
        }
        Set<String> wanted = new HashSet<>();
        k.flows().forEach(flow -> flow.connectors().forEach(d -> wanted.add(d.name())));
        LiveConnectCluster c = f.existing().cluster();
        List<String> blocking = new ArrayList<>();
        for (LiveConnector l : f.scope().live().connectorsOf(c.namespace(), c.name())) {
            if (!wanted.contains(l.name()) && !ConnectorFacts.deletable(f.scope(), l)
                    && ConnectorRules.isRequired(l.config().get(ConnectorRules.EXACTLY_ONCE_SUPPORT))) {
                blocking.add(l.name());
            }
        }
        if (blocking.isEmpty()) {
            return Verdict.PASS;
        }
        return Verdict.refuse(Rule.REVERSE_DISABLE.error("Connectors outside the configuration require exactly-once support",
                "KafkaConnector " + String.join(", ", blocking) + " on KafkaConnect " + c.namespace() + "/" + c.name()
                        + " set exactly.once.support=required, and no flow of this configuration manages them. Setting the "
                        + "workers to " + EosMode.CONFIG_KEY + "=" + f.desired().eos().value() + " would break them. Set them "
                        + "back to requested (or declare their flows here), then plan again.", f.address()));
    }
}
