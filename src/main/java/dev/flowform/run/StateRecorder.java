package dev.flowform.run;

import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.LiveState;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.DriftEntry;
import dev.flowform.plan.Plan;
import dev.flowform.state.StateStore;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Records live objects in the state's resource snapshots, secrets hashed: the managed objects after an apply
 * (what the next plan measures drift against), and the drifted objects of a refresh-only plan.
 *
 * @param env     the open environment
 */
record StateRecorder(Environment env) {

    /**
     * Records every managed object (KafkaConnects, KafkaConnectors, KafkaMirrorMaker2s) as it is now; when the cluster
     * cannot be read (reported), nothing is recorded.
     */
    void snapshot() {
        LiveState now;
        try {
            now = env.cluster().readLive(env.workspace().desired());
        } catch (OperationFailed e) {
            return;
        }
        Set<String> secrets = env.secrets().values();
        for (DesiredConnectCluster c : env.workspace().desired().clusters()) {
            now.cluster(c.namespace(), c.name()).ifPresent(l -> save(c.address(), "KafkaConnect", l.namespace(), l.name(),
                    l.raw(), secrets));
        }
        for (DesiredFlow f : env.workspace().desired().flows()) {
            for (DesiredConnector d : f.connectors()) {
                now.connector(d.namespace(), d.name()).ifPresent(l -> save(d.address(), "KafkaConnector", l.namespace(),
                        l.name(), l.raw(), secrets));
            }
        }
        for (DesiredMirrorMaker2 m : env.workspace().desired().mirrorMakers()) {
            now.mirrorMaker(m.namespace(), m.name()).ifPresent(l -> save(m.address(), Strimzi.KAFKA_MIRROR_MAKER_2_KIND,
                    l.namespace(), l.name(), l.workers().raw(), secrets));
        }
    }

    /**
     * Records every drifted object of a refresh-only plan as it is live now; one deleted since is forgotten.
     *
     * @return the summary of the run, for its record and the view
     * @throws OperationFailed after reporting that the cluster cannot be read
     */
    String acceptDrift(Plan plan) {
        StateStore state = env.state();
        LiveState now = env.cluster().readLive(env.workspace().desired());
        Set<String> secrets = env.secrets().values();
        int recorded = 0;
        for (DriftEntry e : plan.drift()) {
            Optional<Map<String, Object>> raw = now.body(e.object().kind(), e.object().namespace(), e.object().name());
            if (raw.isEmpty()) {
                state.snapshots().delete(e.address());
            } else {
                save(e.address(), e.object().kind(), e.object().namespace(), e.object().name(), raw.get(), secrets);
            }
            recorded++;
        }
        return "Recorded " + recorded + " object(s) changed outside flowform in the state; the cluster was not changed.";
    }

    private void save(String address, String kind, String namespace, String name, Map<String, Object> raw,
                      Set<String> secrets) {
        env.state().snapshots().saveLive(address, kind, namespace, name, raw, secrets);
    }
}
