package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.config.ClusterEndpoint;
import dev.flowform.config.ReplicationFlowBlock;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.ManageMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.render.PlanGraph;
import dev.flowform.render.PlanMarkdown;
import dev.flowform.testing.Configs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The pull-request Markdown ({@code show FILE --format markdown}) and the step graphs ({@code flowform graph}, DOT and
 * Mermaid) of plans, compared with {@code src/test/resources/golden-views/<case>/plan.md}, {@code plan.dot} and
 * {@code plan.mmd}. Regenerate with {@code mvn test -Dtest=GoldenPlanViewsTest -Dgolden.update=true} and review the
 * diff.
 *
 * <p>Most cases read the reviewed plan documents of {@code golden-plans} (the quickstart's rollout, a refusal, drift,
 * a warning, connectors created with a JAAS password), so the views are rendered from what a saved plan holds; the
 * two-cluster case is planned here: the quickstart's cluster plus a new cluster {@code west} whose flow logs in with
 * a SCRAM password.
 */
class GoldenPlanViewsTest {

    private static final Path PLANS = Path.of("src", "test", "resources", "golden-plans");
    private static final Path DIR = Path.of("src", "test", "resources", "golden-views");
    private static final boolean UPDATE = Boolean.getBoolean("golden.update");
    private static final String SECRET = "Golden-Secret-8812";
    private static final String WEST_SECRET = "West-Scram-Secret-5531";

    @TestFactory
    Stream<DynamicTest> golden_views() {
        Map<String, Supplier<Plan>> cases = new LinkedHashMap<>();
        for (String saved : List.of("eos-absent-rolled", "not-ready-refused", "connectors-absent-created", "drift",
                "kafka-3-5-fencing-warning", "no-changes", "refresh-only", "disable-eos-reverse-order")) {
            cases.put(saved, () -> decode(saved));
        }
        cases.put("two-clusters", GoldenPlanViewsTest::twoClusters);
        return cases.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> check(e.getKey(), e.getValue().get())));
    }

    @Test
    void the_quickstart_graph_shows_waits_apart_and_edges_in_step_order() {
        String mermaid = PlanGraph.render(decode("eos-absent-rolled"), PlanGraph.Notation.MERMAID);
        assertThat(mermaid).containsSubsequence("s1[", "s2{{", "s3[", "s4{{", "s5[", "s6{{", "s7[", "s8{{",
                "s1 --> s2", "s2 --> s3", "s3 --> s4", "s4 --> s5", "s5 --> s6", "s6 --> s7", "s7 --> s8",
                "class s2,s4,s6,s8 wait");
        String dot = PlanGraph.render(decode("eos-absent-rolled"), PlanGraph.Notation.DOT);
        assertThat(dot).contains("s2 [shape=hexagon, style=dashed", "s1 [shape=box", "s5 -> s6;", "s7 -> s8;");
    }

    @Test
    void a_refusal_is_a_red_node_naming_its_rule_in_its_cluster() {
        Plan refused = decode("not-ready-refused");
        assertThat(PlanGraph.render(refused, PlanGraph.Notation.DOT)).containsSubsequence("subgraph cluster_1",
                "label=\"connect_cluster.mm2-connect\"", "r1 [shape=octagon, color=red", "refused: rule failed-reconcile");
        assertThat(PlanGraph.render(refused, PlanGraph.Notation.MERMAID)).contains("r1>\"refused: rule failed-reconcile",
                "class r1 refused");
        assertThat(PlanMarkdown.render(refused)).contains("**Plan refused:** 1 error", "rule `failed-reconcile`")
                .doesNotContain("#### Steps");
    }

    @Test
    void two_clusters_are_two_subgraphs_with_independent_chains() {
        Plan plan = twoClusters();
        String mermaid = PlanGraph.render(plan, PlanGraph.Notation.MERMAID);
        assertThat(mermaid).containsSubsequence("subgraph c1[\"connect_cluster.mm2-connect\"]", "end",
                "subgraph c2[\"connect_cluster.west\"]", "end");
        int firstWest = plan.steps().stream().filter(s -> s.address().equals("connect_cluster.west")).findFirst()
                .orElseThrow().id();
        assertThat(mermaid).doesNotContain("--> s" + firstWest + "\n");
    }

    @Test
    void a_plan_with_many_tasks_lists_the_first_hundred_transactional_ids_in_its_comment() {
        Plan quickstart = decode("eos-absent-rolled");
        List<TransactionalId> ids = java.util.stream.IntStream.range(0, 250).mapToObj(i -> new TransactionalId(
                "connect_cluster.mm2-connect", "mm2-connect-big-source-" + i, "big-source", i, dev.flowform.model.EosMode.ENABLED))
                .toList();
        String md = PlanMarkdown.render(new Plan(quickstart.formatVersion(), quickstart.environment(), quickstart.createdAt(),
                quickstart.basedOn(), quickstart.liveFingerprints(), quickstart.changes(), quickstart.steps(),
                quickstart.diagnostics(), quickstart.mode(), quickstart.targets(), quickstart.drift(), ids, quickstart.inputs()));
        assertThat(md).contains("(250)</summary>", "`mm2-connect-big-source-99`", "... and 150 more")
                .doesNotContain("`mm2-connect-big-source-100`");
    }

    private static void check(String name, Plan plan) throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("plan.md", PlanMarkdown.render(plan));
        files.put("plan.dot", PlanGraph.render(plan, PlanGraph.Notation.DOT));
        files.put("plan.mmd", PlanGraph.render(plan, PlanGraph.Notation.MERMAID));
        Path folder = DIR.resolve(name);
        for (Map.Entry<String, String> f : files.entrySet()) {
            assertThat(f.getValue()).doesNotContain(SECRET, WEST_SECRET, "sha256:", "\r", "/tmp", "/work");
            if (UPDATE) {
                Files.createDirectories(folder);
                Files.writeString(folder.resolve(f.getKey()), f.getValue());
                continue;
            }
            assertThat(folder.resolve(f.getKey())).as("golden file missing: run with -Dgolden.update=true").exists();
            assertThat(f.getValue()).as(name + "/" + f.getKey()).isEqualTo(Files.readString(folder.resolve(f.getKey())));
        }
    }

    private static Plan decode(String goldenPlan) {
        try {
            return PlanCodec.decode(Files.readString(PLANS.resolve(goldenPlan).resolve("plan.json")));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The quickstart's existing cluster rolling out EOS, and a new cluster {@code west} with its own flow. */
    private static Plan twoClusters() {
        World w = new World(StrimziApi.V1BETA2);
        w.kc = w.connect(null, 3, "3.9.0", true, false);
        w.roll = World.Roll.ROLLED;
        Map<String, String> base = Map.of("source.cluster.alias", "dc1", "target.cluster.alias", "dc2");
        for (dev.flowform.model.ConnectorRole role : dev.flowform.model.ConnectorRole.values()) {
            String name = "dc1-to-dc2-" + role.name().toLowerCase(java.util.Locale.ROOT);
            w.connectors.put(name, w.connector(name, role.connectorClass(), 1, null, base, Map.of()));
            w.statuses.put(name, World.Status.RUNNING);
        }
        DesiredConnectCluster west = new DesiredConnectCluster("connect_cluster.west", "west", null, ManageMode.OWN, null, 2,
                "dc2-kafka-bootstrap.kafka-dc2.svc:9093", "3.9.0", Map.of("group.id", "repl-west"), Map.of(), Set.of(), null);
        ReplicationFlowBlock westFlow = new ReplicationFlowBlock("replication_flow.dc3-to-dc2", "dc3-to-dc2", ManageMode.OWN,
                "west", null,
                new ClusterEndpoint("dc3", "dc3-kafka-bootstrap.kafka-dc3.svc:9093", Map.of("security.protocol", "SASL_SSL",
                        "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"mm2\" "
                                + "password=\"" + WEST_SECRET + "\";"), Set.of()),
                new ClusterEndpoint("dc2", "dc2-kafka-bootstrap.kafka-dc2.svc:9093", Map.of(), Set.of()),
                List.of("audit\\..*"), null, null, true, null, null, 1, null, null, Map.of(), Map.of(), null, Set.of(), null);
        Plan plan = Planner.plan(Configs.desired(List.of(Configs.cluster(ManageMode.ADOPT, null), west),
                        List.of(Configs.adoptedFlow(true), westFlow)), w.toLive(),
                new PlanRequest("prod", new StateRef("6f1c2a9e-0b7d-4e55-9a31-2c8d4b7e1f00", 42),
                        Instant.parse("2026-11-30T12:00:00Z"), PlanOptions.DEFAULT, List.of(), v -> "sha256:" + v.hashCode()));
        assertThat(plan.isApplyable()).as("%s", plan.diagnostics()).isTrue();
        return PlanCodec.decode(PlanCodec.toJson(plan, "test", PlanCodec.MASK));
    }
}
