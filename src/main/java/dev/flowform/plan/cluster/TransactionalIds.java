package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveState;
import dev.flowform.plan.Action;
import dev.flowform.plan.TransactionalId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The transactional IDs a resource's principals need {@code Write}/{@code Describe} on once its chain has run (Kafka
 * docs connect.html, "ACL requirements"): the leader's {@code connect-cluster-<group id>} from {@code preparing}, every
 * source task's {@code <group id>-<connector>-<task>} under {@code enabled}; group id and task counts from the
 * {@link ResourceKind}. Pure.
 */
final class TransactionalIds {

    private TransactionalIds() {
    }

    /**
     * @param chain the steps the sequencer emitted for it (before ownership marks)
     * @return the IDs, the leader's first, then per connector (by name) per task; empty when the chain is empty (only
     *         resources this plan changes are listed) or the workers end at {@code disabled}
     */
    static List<TransactionalId> of(ClusterFacts f, List<Draft> chain) {
        List<TransactionalId> out = new ArrayList<>();
        EosMode eos = f.desired().eos();
        if (chain.isEmpty() || eos == EosMode.DISABLED) {
            return out;
        }
        String group = f.kind().groupId();
        out.add(new TransactionalId(f.address(), "connect-cluster-" + group, null, null, EosMode.PREPARING));
        if (eos == EosMode.ENABLED) {
            f.kind().taskCounts(f).forEach((name, n) -> {
                for (int t = 0; t < n; t++) {
                    out.add(new TransactionalId(f.address(), group + "-" + name + "-" + t, name, t, EosMode.ENABLED));
                }
            });
        }
        return out;
    }

    /**
     * @return the tasks per connector of a KafkaConnect and its flows, by name: each declared connector's
     *         ({@code tasksMax} declared, else live, else 1), then the other live connectors the plan does not delete
     */
    static Map<String, Integer> connectTasks(ClusterFacts f, ConnectKind k) {
        LiveState live = f.scope().live();
        Map<String, Integer> tasks = new TreeMap<>();
        for (DesiredFlow flow : k.flows()) {
            for (DesiredConnector d : flow.connectors()) {
                Integer liveTasks = live.connector(d.namespace(), d.name()).map(LiveConnector::tasksMax).orElse(null);
                tasks.put(d.name(), d.tasksMax() != null ? d.tasksMax() : liveTasks != null ? liveTasks : 1);
            }
        }
        if (k.live() != null) {
            Set<String> deleted = new HashSet<>();
            k.work().stream().filter(w -> w.action() == Action.DELETE).forEach(w -> deleted.add(w.ref().name()));
            for (LiveConnector l : live.connectorsOf(k.live().namespace(), k.live().name())) {
                if (!tasks.containsKey(l.name()) && !deleted.contains(l.name())) {
                    tasks.put(l.name(), l.tasksMax() == null ? 1 : l.tasksMax());
                }
            }
        }
        return tasks;
    }
}
