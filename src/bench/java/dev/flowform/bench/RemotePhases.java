package dev.flowform.bench;

import dev.flowform.config.ConfigLoader;
import dev.flowform.config.DesiredStateFactory;
import dev.flowform.config.LoadResult;
import dev.flowform.diag.Diagnostics;
import dev.flowform.live.Fabric8ClusterReader;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveState;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.PlanRequest;
import dev.flowform.plan.Planner;
import dev.flowform.render.PlanRenderer;
import dev.flowform.render.Style;
import dev.flowform.run.PlanOperation;
import dev.flowform.state.StateStore;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where a cold {@code flowform plan} against an API server in another process (a kubeconfig) spends its time: the
 * phases of {@code plan} one after another in a fresh JVM, printed as {@code phase ms} lines, the first being the
 * JVM's own start-up until {@code main}. Arguments: {@code <configuration dir> <state dir> <kubeconfig file>}.
 */
public final class RemotePhases {

    private RemotePhases() {
    }

    /**
     * @param args the configuration folder, the state folder and the kubeconfig
     * @throws Exception when a phase fails
     */
    public static void main(String[] args) throws Exception {
        long t = System.nanoTime();
        System.out.println("jvm-until-main " + ManagementFactory.getRuntimeMXBean().getUptime());
        LoadResult loaded = new ConfigLoader().load(Path.of(args[0]), null, java.util.Map.of());
        DesiredState desired = DesiredStateFactory.build(loaded.configuration(), new Diagnostics());
        t = StartupPhases.lap("config", t);
        String env = loaded.configuration().environment().name();
        StateStore state = StateStore.open(Path.of(args[1]), env, Clock.systemUTC());
        t = StartupPhases.lap("state-open", t);
        Config config = Config.fromKubeconfig(null, Files.readString(Path.of(args[2])), args[2]);
        KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
        t = StartupPhases.lap("client-build", t);
        client.getKubernetesVersion();
        Set<String> namespaces = new TreeSet<>();
        for (DesiredConnectCluster c : desired.clusters()) {
            namespaces.add(c.namespace());
        }
        LiveState live = new Fabric8ClusterReader(client).read(namespaces);
        var recorded = PlanOperation.recorded(state);
        state.journal().runs(20);
        t = StartupPhases.lap("reads", t);
        Plan plan = Planner.plan(desired, live, new PlanRequest(env, state.stateRef(), Clock.systemUTC().instant(),
                dev.flowform.plan.PlanOptions.DEFAULT, recorded, state.cipher()::hash));
        t = StartupPhases.lap("planning", t);
        String text = PlanRenderer.render(PlanCodec.decode(PlanCodec.toJson(plan, "bench", PlanCodec.MASK)), Style.PLAIN);
        t = StartupPhases.lap("render", t);
        client.close();
        state.close();
        StartupPhases.lap("close", t);
        System.out.println("plan-chars " + text.length());
        System.exit(0);
    }
}
