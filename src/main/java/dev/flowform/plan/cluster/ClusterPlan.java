package dev.flowform.plan.cluster;

import dev.flowform.diag.Diagnostic;
import dev.flowform.plan.Change;
import dev.flowform.plan.Ownership;
import dev.flowform.plan.TransactionalId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plan of one Connect cluster and the flows on it, before the planner numbers the steps of all clusters.
 *
 * @param address          the cluster's resource address
 * @param chain            its steps in order; each depends on the one before, or, in a lane ({@link Draft#lane()}),
 *                         as {@link Draft} says
 * @param changes          object changes of the cluster and its connectors
 * @param transactionalIds IDs that need ACLs once the chain has run
 * @param flowOf           address of each desired connector to the address of its flow (for {@code --target})
 * @param transfers        addresses of the objects taken over with {@code --transfer-ownership}, to their
 *                         previous owner
 * @param diagnostics      refusals and warnings, in the order the guards gave them
 */
public record ClusterPlan(String address, List<Draft> chain, List<Change> changes, List<TransactionalId> transactionalIds,
                          Map<String, String> flowOf, Map<String, Ownership> transfers, List<Diagnostic> diagnostics) {

    /** Copies the lists and maps (in their order). */
    public ClusterPlan {
        chain = List.copyOf(chain);
        changes = List.copyOf(changes);
        transactionalIds = List.copyOf(transactionalIds);
        flowOf = Collections.unmodifiableMap(new LinkedHashMap<>(flowOf));
        transfers = Collections.unmodifiableMap(new LinkedHashMap<>(transfers));
        diagnostics = List.copyOf(diagnostics);
    }
}
