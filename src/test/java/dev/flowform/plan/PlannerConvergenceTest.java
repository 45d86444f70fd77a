package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.apply.Applier;
import dev.flowform.apply.ApplyListener;
import dev.flowform.apply.ApplyResult;
import dev.flowform.apply.Fabric8ClusterWriter;
import dev.flowform.apply.Fabric8RolloutWatcher;
import dev.flowform.apply.Journal;
import dev.flowform.locking.Sleeper;
import dev.flowform.apply.StepResult;
import dev.flowform.apply.StepTimeouts;
import dev.flowform.apply.StopSignal;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.live.Fabric8ClusterReader;
import dev.flowform.live.StrimziResources;
import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import dev.flowform.testing.Configs;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * A sample of the {@link StateSpace} loaded into the embedded cluster (fabric8
 * mock API server plus simulated Strimzi operator, {@link SimSettings#fast()}): for each, the real reader,
 * planner, applier and rollout watcher run, the apply succeeds, and a second plan has no steps.
 *
 * <p>One embedded cluster per Strimzi API version holds every sampled case in its own namespace (one
 * start, one operator thread); cases are planned and applied in parallel. Situations the simulator
 * reaches only through the operator are produced the way they arise: a roll in progress by patching the
 * spec just before planning, a failed reconcile and FAILED connectors by writing their status.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PlannerConvergenceTest {

    private static final int SAMPLE = 210;
    private static final int PARALLEL_PER_CLUSTER = 8;
    private static final Duration WAIT_TIMEOUT = Duration.ofSeconds(60);
    /** A guard against a hang, not a speed target (the bench measures speed): a run on a loaded machine took 4 min. */
    private static final Duration HANG_GUARD = Duration.ofMinutes(15);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int LANES_IN_FLIGHT = 4;
    /** Cases whose plan had connector lanes that ran concurrently. */
    private static final java.util.concurrent.atomic.AtomicInteger CONCURRENT = new java.util.concurrent.atomic.AtomicInteger();

    @TempDir
    Path tmp;

    private record Indexed(int index, StateSpace.Case c) {
        String namespace() {
            return "case-" + index;
        }
    }

    @Test
    void a_sample_of_the_state_space_converges_in_the_simulator() throws Exception {
        long start = System.nanoTime();
        List<Indexed> sample = sample();
        long sampled = System.nanoTime();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        ExecutorService perApi = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (StrimziApi api : StrimziApi.values()) {
                List<Indexed> cases = sample.stream().filter(i -> i.c().api() == api).toList();
                runs.add(perApi.submit(() -> runAll(api, cases, failures)));
            }
            for (Future<?> f : runs) {
                f.get(HANG_GUARD.toSeconds(), TimeUnit.SECONDS);
            }
        } finally {
            perApi.shutdownNow();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        System.out.printf("PlannerConvergenceTest: %d cases applied in the simulator and re-planned in %.1f s "
                        + "(sampling %.1f s)%n", sample.size(), took.toMillis() / 1000.0, (sampled - start) / 1e9);

        System.out.println("PlannerConvergenceTest: sample by roll " + count(sample, i -> i.c().roll()) + ", by source "
                + count(sample, i -> i.c().source()) + ", by annotation " + count(sample, i -> i.c().annotation())
                + ", by desired EOS " + count(sample, i -> i.c().desiredEos()) + ", by replicas " + count(sample, i -> i.c().replicas())
                + ", with concurrent connector lanes " + CONCURRENT.get());
        assertThat(sample).hasSizeGreaterThanOrEqualTo(200);
        assertThat(count(sample, i -> i.c().roll())).containsKeys(World.Roll.ROLLED, World.Roll.IN_PROGRESS, World.Roll.NOT_READY);
        assertThat(count(sample, i -> i.c().api())).containsKeys(StrimziApi.V1BETA2, StrimziApi.V1);
        assertThat(count(sample, i -> i.c().annotation())).containsKeys(true, false);
        assertThat(count(sample, i -> i.c().source())).hasSize(StateSpace.Source.values().length);
        assertThat(failures).isEmpty();
        assertThat(CONCURRENT.get()).as("cases applied with concurrent connector lanes").isPositive();
    }

    /**
     * Cases whose pure plan is applyable and has steps, taken by a fixed stride coprime with the size of the
     * state space (so the sample spreads over every dimension), among the situations the simulator can
     * reach (not paused: refused anyway; not "workers behind at the current generation": the simulated
     * operator never writes that).
     */
    private static List<Indexed> sample() {
        List<StateSpace.Case> all = StateSpace.all();
        PlanRequest request = new PlanRequest("test", new StateRef("l", 1), Instant.EPOCH);
        int stride = 7919;
        while (gcd(stride, all.size()) != 1) {
            stride += 2;
        }
        List<Indexed> out = new ArrayList<>();
        for (int k = 0; k < all.size() && out.size() < SAMPLE; k++) {
            StateSpace.Case c = all.get((int) ((long) k * stride % all.size()));
            if (c.roll() == World.Roll.PAUSED || c.roll() == World.Roll.PODS_BEHIND) {
                continue;
            }
            Plan p = Planner.plan(StateSpace.desired(c), StateSpace.world(c).toLive(), request.withOptions(c.options()));
            if (p.isApplyable() && p.hasChanges()) {
                out.add(new Indexed(out.size(), c));
            }
        }
        return out;
    }

    private static Map<Object, Long> count(List<Indexed> sample, java.util.function.Function<Indexed, Object> key) {
        return sample.stream().collect(java.util.stream.Collectors.groupingBy(key, java.util.TreeMap::new,
                java.util.stream.Collectors.counting()));
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private void runAll(StrimziApi api, List<Indexed> cases, List<String> failures) {
        long created = System.nanoTime();
        Path seed = tmp.resolve("seed-" + api.version());
        try {
            Files.createDirectories(seed);
            StringBuilder yaml = new StringBuilder();
            for (Indexed i : cases) {
                for (Map<String, Object> o : seedObjects(i)) {
                    yaml.append("---\n").append(JSON.writeValueAsString(o)).append('\n');
                }
            }
            Files.writeString(seed.resolve("cases.yaml"), yaml.toString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed).api(api)
                .settings(SimSettings.fast()).build())) {
            if (!cluster.simulator().awaitIdle(Duration.ofSeconds(90))) {
                failures.add(api + ": the simulator did not settle the seeded cases");
                return;
            }
            System.out.printf("PlannerConvergenceTest: %s: %d cases seeded and settled after %.1f s%n", api.version(),
                    cases.size(), (System.nanoTime() - created) / 1e9);
            ExecutorService pool = Executors.newFixedThreadPool(PARALLEL_PER_CLUSTER);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (Indexed i : cases) {
                    futures.add(pool.submit(() -> {
                        try {
                            String problem = converge(cluster, i);
                            if (problem != null) {
                                failures.add(i.namespace() + " " + i.c() + ":\n    " + problem);
                            }
                        } catch (RuntimeException | InterruptedException e) {
                            failures.add(i.namespace() + " " + i.c() + ": " + e);
                        }
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (java.util.concurrent.ExecutionException e) {
                failures.add(api + ": " + e.getCause());
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** @return null when the case converged, else what went wrong */
    private static String converge(EmbeddedCluster cluster, Indexed i) throws InterruptedException {
        StateSpace.Case c = i.c();
        String ns = i.namespace();
        KubernetesClient client = cluster.client();
        perturb(client, cluster.api(), i);
        DesiredState desired = desired(c, ns);
        Fabric8ClusterReader reader = new Fabric8ClusterReader(client);
        PlanRequest request = new PlanRequest("test", new StateRef("l", 1), Instant.EPOCH).withOptions(c.options());
        Plan plan = Planner.plan(desired, reader.read(Set.of(ns)), request);
        if (!plan.isApplyable()) {
            return "not applyable in the simulator: " + plan.diagnostics().stream().filter(d -> d.isError())
                    .map(d -> d.summary()).toList();
        }
        // connector lanes (Kafka 3.6 or newer) run concurrently, as `apply --parallelism` runs them
        Applier applier = new Applier(new Fabric8ClusterWriter(client, Sleeper.SYSTEM),
                new Fabric8RolloutWatcher(client, Clock.systemUTC(), Duration.ofSeconds(10)), Journal.NONE, QUIET,
                Clock.systemUTC(), StepTimeouts.of(WAIT_TIMEOUT), LANES_IN_FLIGHT, StopSignal.never());
        if (!StepGraph.forks(plan.steps()).isEmpty()) {
            CONCURRENT.incrementAndGet();
        }
        ApplyResult result = applier.apply(plan);
        if (!result.succeeded()) {
            StepResult failed = result.results().stream().filter(r -> r.outcome() == StepResult.Outcome.FAILED)
                    .findFirst().orElse(null);
            return "apply failed: " + (failed == null ? result.results() : failed.step().kind() + " " + failed.step().address()
                    + ": " + failed.detail()) + "\n    plan: " + plan.steps().stream().map(s -> s.kind() + " " + s.summary()).toList();
        }
        LiveState after = reader.read(Set.of(ns));
        Plan again = Planner.plan(desired, after, request);
        if (again.hasChanges() || !again.isApplyable()) {
            return "second plan is not empty: " + again.steps().stream().map(s -> s.kind() + " " + s.address() + " " + s.summary())
                    .toList() + " " + again.diagnostics().stream().filter(d -> d.isError()).map(d -> d.summary()).toList();
        }
        EosMode mode = after.cluster(ns, World.CLUSTER).orElseThrow().eosMode().orElseThrow();
        if (mode != c.target()) {
            return "the workers ended at " + mode + ", not " + c.target();
        }
        return null;
    }

    /** The configuration of a case, in the case's namespace. */
    private static DesiredState desired(StateSpace.Case c, String ns) {
        DesiredState base = StateSpace.desired(c);
        var dc = base.clusters().get(0);
        DesiredConnectCluster cluster = new DesiredConnectCluster(dc.address(), dc.name(), ns, ManageMode.ADOPT, null, null, null,
                null, dc.config(), Map.of(), Set.of(), null);
        return Configs.desired(List.of(cluster), List.of(StateSpace.flowBlock(c)));
    }

    /** The case's objects as seed manifests: no status, generation 1, in the case's namespace. */
    private static List<Map<String, Object>> seedObjects(Indexed i) {
        StateSpace.Case c = i.c();
        World w = StateSpace.world(c);
        List<Map<String, Object>> out = new ArrayList<>();
        Map<String, Object> kc = w.kc;
        if (c.roll() == World.Roll.IN_PROGRESS) {
            Map<String, Object> config = World.map(World.map(kc.get("spec")).get("config"));
            if (c.previous() == EosMode.DISABLED) {
                config.remove(EosMode.CONFIG_KEY);
            } else {
                config.put(EosMode.CONFIG_KEY, c.previous().value());
            }
        }
        out.add(relocate(kc, i.namespace()));
        w.connectors.values().forEach(b -> out.add(relocate(b, i.namespace())));
        return out;
    }

    private static Map<String, Object> relocate(Map<String, Object> body, String ns) {
        Map<String, Object> copy = World.deepCopy(body);
        Map<String, Object> md = World.map(copy.get("metadata"));
        md.put("namespace", ns);
        md.remove("generation");
        return copy;
    }

    /** Produces, just before planning, what the simulated operator reaches only over time. */
    private static void perturb(KubernetesClient client, StrimziApi api, Indexed i) {
        StateSpace.Case c = i.c();
        String ns = i.namespace();
        ResourceDefinitionContext kcCtx = StrimziResources.kafkaConnect(api);
        if (c.roll() == World.Roll.IN_PROGRESS) {
            GenericKubernetesResource kc = client.genericKubernetesResources(kcCtx).inNamespace(ns).withName(World.CLUSTER).get();
            @SuppressWarnings("unchecked")
            Map<String, Object> spec = (Map<String, Object>) kc.getAdditionalProperties().get("spec");
            @SuppressWarnings("unchecked")
            Map<String, Object> config = new LinkedHashMap<>((Map<String, Object>) spec.get("config"));
            if (c.spec().value == null) {
                config.remove(EosMode.CONFIG_KEY);
            } else {
                config.put(EosMode.CONFIG_KEY, c.spec().value);
            }
            if (c.previous() == c.spec().mode()) {
                config.put("offset.flush.timeout.ms", "5000");
            }
            spec.put("config", config);
            client.genericKubernetesResources(kcCtx).inNamespace(ns).resource(kc).update();
        }
        if (c.roll() == World.Roll.NOT_READY) {
            GenericKubernetesResource kc = client.genericKubernetesResources(kcCtx).inNamespace(ns).withName(World.CLUSTER).get();
            Map<String, Object> status = new LinkedHashMap<>();
            status.put("observedGeneration", kc.getMetadata().getGeneration());
            status.put("conditions", List.of(Map.of("type", "NotReady", "status", "True", "reason", "TimeoutException",
                    "message", World.FAILURE)));
            kc.setAdditionalProperty("status", status);
            client.genericKubernetesResources(kcCtx).inNamespace(ns).resource(kc).updateStatus();
        }
        if (c.source() == StateSpace.Source.EOS_ON_FAILED || c.source() == StateSpace.Source.EOS_OFF_FAILED) {
            ResourceDefinitionContext ctx = StrimziResources.kafkaConnector(api);
            GenericKubernetesResource source = client.genericKubernetesResources(ctx).inNamespace(ns)
                    .withName("dc1-to-dc2-source").get();
            Map<String, Object> status = new LinkedHashMap<>();
            status.put("observedGeneration", source.getMetadata().getGeneration());
            status.put("conditions", List.of(Map.of("type", "NotReady", "status", "True", "reason", "ConnectRestException",
                    "message", World.CONNECTOR_TRACE)));
            status.put("connectorStatus", Map.of("name", "dc1-to-dc2-source", "type", "source",
                    "connector", Map.of("state", "FAILED", "worker_id", "10.0.0.1:8083", "trace", World.CONNECTOR_TRACE),
                    "tasks", List.of()));
            source.setAdditionalProperty("status", status);
            client.genericKubernetesResources(ctx).inNamespace(ns).resource(source).updateStatus();
        }
    }

    private static final ApplyListener QUIET = new ApplyListener() {
        @Override
        public void stepStarted(dev.flowform.plan.Step step, int index, int total) {
        }

        @Override
        public void stepProgress(dev.flowform.plan.Step step, int index, int total, Readiness state, Duration elapsed) {
        }

        @Override
        public void stepDone(dev.flowform.plan.Step step, int index, int total, String detail, Duration took) {
        }

        @Override
        public void stepFailed(dev.flowform.plan.Step step, int index, int total, String detail, Duration took) {
        }

        @Override
        public void stepSkipped(dev.flowform.plan.Step step, int index, int total, String reason) {
        }
    };
}
