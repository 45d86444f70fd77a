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
 * The transactional IDs a cluster's principals need {@code Write}/{@code Describe} on once its chain has run
 * (Kafka docs connect.html "ACL requirements"; {@code DistributedConfig.transactionalProducerId},
 * {@code Worker.taskTransactionalId}): the workers' leader ID from {@code preparing} on, and every source task's
 * ID under {@code enabled} (every MirrorMaker 2 connector is a source connector, and with enabled all of them run
 * transactionally). Pure.
 */
final class TransactionalIds {

    private TransactionalIds() {
    }

    /**
     * @param f     the cluster's facts
     * @param k     the KafkaConnect and its flows
     * @param chain the steps the sequencer emitted for it (before ownership marks)
     * @return the IDs, the leader's first, then per connector (by name) per task; empty when the chain is empty
     *         (only clusters this plan changes are listed) or the workers end at {@code disabled}
     */
    static List<TransactionalId> of(ClusterFacts f, ConnectKind k, List<Draft> chain) {
        List<TransactionalId> out = new ArrayList<>();
        EosMode eos = f.desired().eos();
        if (chain.isEmpty() || eos == EosMode.DISABLED) {
            return out;
        }
        String cluster = f.address();
        out.add(new TransactionalId(cluster, "connect-cluster-" + k.groupId(), null, null, EosMode.PREPARING));
        if (eos != EosMode.ENABLED) {
            return out;
        }
        LiveState live = f.scope().live();
        Map<String, Integer> tasks = new TreeMap<>();
        for (DesiredFlow flow : k.flows()) {
            for (DesiredConnector d : flow.connectors()) {
                Integer liveTasks = live.connector(d.namespace(), d.name()).map(LiveConnector::tasksMax).orElse(null);
                tasks.put(d.name(), d.tasksMax() != null ? d.tasksMax() : liveTasks != null ? liveTasks : 1);
            }
        }
        if (f.existing() != null) {
            Set<String> deleted = new HashSet<>();
            k.work().stream().filter(w -> w.action() == Action.DELETE).forEach(w -> deleted.add(w.ref().name()));
            for (LiveConnector l : live.connectorsOf(f.existing().cluster().namespace(), f.existing().cluster().name())) {
                if (!tasks.containsKey(l.name()) && !deleted.contains(l.name())) {
                    tasks.put(l.name(), l.tasksMax() == null ? 1 : l.tasksMax());
                }
            }
        }
        tasks.forEach((name, n) -> {
            for (int t = 0; t < n; t++) {
                out.add(new TransactionalId(cluster, k.groupId() + "-" + name + "-" + t, name, t, EosMode.ENABLED));
            }
        });
        return out;
    }
}
