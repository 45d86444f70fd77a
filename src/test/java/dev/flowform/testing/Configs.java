package dev.flowform.testing;

import dev.flowform.config.ClusterEndpoint;
import dev.flowform.config.Configuration;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.config.DesiredStateFactory;
import dev.flowform.config.EnvironmentBlock;
import dev.flowform.config.KubernetesTarget;
import dev.flowform.config.ReplicationFlowBlock;
import dev.flowform.diag.Diagnostics;
import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.ManageMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builders of configuration blocks for tests that need a desired state without files. */
public final class Configs {
    private Configs() {
    }

    /** The namespace of the fixtures. */
    public static final String NS = "replication";

    /** @return an environment {@code test} with namespace {@link #NS} */
    public static EnvironmentBlock env() {
        return new EnvironmentBlock("test", new KubernetesTarget.Kubeconfig(null, null), NS, Map.of(), null, null);
    }

    /** @return connect_cluster {@code mm2-connect} */
    public static DesiredConnectCluster cluster(ManageMode manage, EosMode eos) {
        return new DesiredConnectCluster("connect_cluster.mm2-connect", "mm2-connect", null, manage, eos, null, null, null,
                Map.of(), Map.of(), Set.of(), null);
    }

    /** @return replication_flow {@code dc1-to-dc2} on mm2-connect, adopted: declares only aliases and EOS */
    public static ReplicationFlowBlock adoptedFlow(Boolean exactlyOnce) {
        return new ReplicationFlowBlock("replication_flow.dc1-to-dc2", "dc1-to-dc2", ManageMode.ADOPT, "mm2-connect", null,
                new ClusterEndpoint("dc1", null, Map.of(), Set.of()), new ClusterEndpoint("dc2", null, Map.of(), Set.of()),
                null, null, null, exactlyOnce, null, null, null, null, true, Map.of(), Map.of(), null, Set.of(), null);
    }

    /** @return a fully owned flow {@code name} on mm2-connect with connection details */
    public static ReplicationFlowBlock ownedFlow(String name, Boolean exactlyOnce, List<String> topics) {
        return new ReplicationFlowBlock("replication_flow." + name, name, ManageMode.OWN, "mm2-connect", null,
                new ClusterEndpoint("dc1", "dc1-kafka-bootstrap.kafka-dc1.svc:9093",
                        Map.of("security.protocol", "SASL_SSL"), Set.of()),
                new ClusterEndpoint("dc2", "dc2-kafka-bootstrap.kafka-dc2.svc:9093", Map.of(), Set.of()),
                topics, null, List.of(".*"), exactlyOnce, null, null, 2, null, null, Map.of(), Map.of(), null, Set.of(), null);
    }

    /** @return the desired state of these blocks; fails the test on semantic errors */
    public static DesiredState desired(List<DesiredConnectCluster> clusters, List<ReplicationFlowBlock> flows) {
        Diagnostics d = new Diagnostics();
        DesiredState s = DesiredStateFactory.build(
                new Configuration(Path.of("."), List.of(env()), env(), clusters, flows, Set.of()), d);
        if (d.hasErrors()) {
            throw new AssertionError("configuration errors: " + d);
        }
        return s;
    }
}
