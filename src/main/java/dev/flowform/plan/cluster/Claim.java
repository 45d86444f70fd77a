package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Addresses;
import dev.flowform.plan.Ownership;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An existing object a cluster's plan manages, with the ownership marks it carries now.
 *
 * @param owner       what its marks say
 * @param foreign     true when the marks name another environment or state lineage
 * @param requested   true when {@code --transfer-ownership} names it
 * @param rewrite     true when taking it over changes its marks
 */
record Claim(String address, ObjectRef ref, Map<String, String> labels, Map<String, String> annotations, Ownership owner,
             boolean foreign, boolean requested, boolean rewrite) {

    /** @return true for a KafkaConnector (whose environment label is rewritten too) */
    boolean connector() {
        return "KafkaConnector".equals(ref.kind());
    }

    /** @return true when the plan refuses the object: another state's, and not handed over */
    boolean refused() {
        return foreign && !requested;
    }

    /** @return true when the plan takes the object over: handed over, and its marks change */
    boolean transfer() {
        return requested && rewrite;
    }

    /**
     * Reads the claims of one cluster's plan: the KafkaConnect first when it exists, then the existing
     * connectors of its flows in order; {@code live} is null when the KafkaConnect does not exist, {@code flowOf} maps
     * each desired connector's address to its flow's.
     */
    static List<Claim> all(PlanScope scope, DesiredConnectCluster dc, LiveConnectCluster live, List<DesiredFlow> flows,
                           Map<String, String> flowOf) {
        List<Claim> out = new ArrayList<>();
        if (live != null) {
            out.add(of(scope, flowOf, dc.address(), live.ref(), live.labels(), live.annotations()));
        }
        for (DesiredFlow f : flows) {
            for (DesiredConnector d : f.connectors()) {
                Optional<LiveConnector> l = scope.live().connector(d.namespace(), d.name());
                l.ifPresent(c -> out.add(of(scope, flowOf, d.address(), c.ref(), c.labels(), c.annotations())));
            }
        }
        return out;
    }

    /** Reads the claim of one existing object ({@code flowOf}: a flow's address names its connectors). */
    static Claim of(PlanScope scope, Map<String, String> flowOf, String address, ObjectRef ref,
                    Map<String, String> labels, Map<String, String> annotations) {
        String environment = scope.environment();
        String lineage = scope.lineage();
        Ownership owner = Ownership.of(labels, annotations);
        boolean requested = scope.options().transferOwnership().stream().anyMatch(t -> Addresses.matches(t, address, flowOf));
        boolean rewrite = lineage == null ? owner.foreign(environment, null)
                : !Ownership.edits(labels, annotations, environment, lineage, "KafkaConnector".equals(ref.kind())).isEmpty();
        return new Claim(address, ref, labels, annotations, owner, owner.foreign(environment, lineage), requested, rewrite);
    }
}
