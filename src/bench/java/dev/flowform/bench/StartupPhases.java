package dev.flowform.bench;

import dev.flowform.config.ConfigLoader;
import dev.flowform.config.DesiredStateFactory;
import dev.flowform.config.KubernetesTarget;
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
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import dev.flowform.state.StateStore;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where a cold {@code flowform plan} of a configuration with an embedded cluster spends its time: runs the
 * phases of {@code plan} one after another in a fresh JVM and prints {@code phase ms} lines, the first being
 * the JVM's own start-up until {@code main}. Arguments: {@code <configuration dir> <state dir>}.
 */
public final class StartupPhases {

    private StartupPhases() {
    }

    /**
     * @param args the configuration folder and the state folder
     */
    public static void main(String[] args) {
        long t = System.nanoTime();
        System.out.println("jvm-until-main " + ManagementFactory.getRuntimeMXBean().getUptime());
        Path dir = Path.of(args[0]);
        Path stateDir = Path.of(args[1]);
        LoadResult loaded = new ConfigLoader().load(dir, null, java.util.Map.of());
        DesiredState desired = DesiredStateFactory.build(loaded.configuration(), new Diagnostics());
        t = lap("config", t);
        String env = loaded.configuration().environment().name();
        StateStore state = StateStore.open(stateDir, env, Clock.systemUTC());
        t = lap("state-open", t);
        KubernetesTarget.Embedded e = (KubernetesTarget.Embedded) loaded.configuration().environment().kubernetes();
        EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder()
                .persistFile(stateDir.resolve(env).resolve("embedded-cluster.json")).seedDir(e.seedDir())
                .settings(SimSettings.demo()).persistReadOnly(true).build());
        t = lap("embedded-cluster-start", t);
        Set<String> namespaces = new TreeSet<>();
        for (DesiredConnectCluster c : desired.clusters()) {
            namespaces.add(c.namespace());
        }
        LiveState live = new Fabric8ClusterReader(cluster.client()).read(namespaces);
        t = lap("read-live", t);
        Plan plan = Planner.plan(desired, live, new PlanRequest(env, state.stateRef(), Clock.systemUTC().instant()));
        String text = PlanRenderer.render(PlanCodec.decode(PlanCodec.toJson(plan, "bench", PlanCodec.MASK)), Style.PLAIN);
        t = lap("plan-and-render", t);
        cluster.close();
        state.close();
        lap("close", t);
        System.out.println("plan-chars " + text.length());
        System.exit(0);
    }

    /**
     * Prints {@code phase ms} for the time since {@code since}.
     *
     * @param phase the phase's name
     * @param since {@link System#nanoTime()} when it began
     * @return now, in {@link System#nanoTime()}
     */
    static long lap(String phase, long since) {
        long now = System.nanoTime();
        System.out.println(phase + " " + (now - since) / 1_000_000);
        return now;
    }
}
