package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.connect.ConnectorStatus;
import dev.flowform.connect.RestResult;
import dev.flowform.connect.WorkerSpec;
import dev.flowform.sim.ApiRequest;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import dev.flowform.sim.connect.SimulatedConnectRuntime;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Roles shipped in {@code deploy/rbac.yaml} are proven against what flowform really requests: plan, apply of a
 * saved plan, an apply that crashed and was resumed, a refused plan and an apply whose connector failed run
 * in-process through a kubeconfig context against the embedded API server, which records every request as
 * Kubernetes authorization sees it (verb, API group, resource/subresource, namespace). Everything plan requested
 * must be allowed by the plan-only Role, everything apply requested by the apply Role, and each Role may grant
 * nothing that was not requested beyond {@link #ALLOWED_EXTRA}. Removing any single grant makes the check report
 * exactly that grant as missing, so the check can fail. A KafkaMirrorMaker2 on a simulated Strimzi 0.48 is planned and applied too,
 * forced rolls included, and an owned one that does not exist yet is created. Slow tier: eleven commands in-process,
 * about 45 s on a busy two-core machine.
 */
@Tag("slow")
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class RbacTest {

    /** The namespace the quickstart manages, where the Roles are bound. */
    private static final String NAMESPACE = "replication";
    private static final Path RBAC = Path.of("deploy", "rbac.yaml");

    /**
     * Grants a Role may carry although no recorded run requested them, each with its reason. Keep it short: every
     * entry is a permission an attacker with the service account's token would have.
     */
    private static final Map<String, Map<String, String>> ALLOWED_EXTRA = Map.of(
            "flowform-plan", Map.of(),
            "flowform-apply", Map.of());

    @TempDir
    static Path tmp;

    private static final List<ApiRequest> PLAN = new ArrayList<>();
    private static final List<ApiRequest> APPLY = new ArrayList<>();
    private static final StringBuilder TRANSCRIPT = new StringBuilder();

    @BeforeAll
    static void record_every_request_of_plan_apply_resume_and_failures() throws IOException {
        planThenApplySavedPlanThenRefusedPlan();
        crashedApplyThenResume();
        applyWhoseConnectorFails();
        createThenDestroyOwnedObjects();
        mirrorMakerOnStrimzi048WithForcedRolls();
    }

    /**
     * @return what a Role must allow of the recorded requests: everything apply requested; what plan requested but its
     *         server-side dry runs, which RBAC authorizes as the writes themselves (a plan run with the read-only Role
     *         warns that its writes could not be checked)
     */
    private static List<ApiRequest> used(String roleName) {
        return roleName.equals("flowform-plan") ? PLAN.stream().filter(r -> !r.dryRun()).toList() : APPLY;
    }

    @Test
    void plan_requests_only_what_the_plan_only_role_allows() {
        Role plan = RbacCheck.role(RbacCheck.read(RBAC), "flowform-plan");
        assertThat(RbacCheck.missing(plan, NAMESPACE, used("flowform-plan"))).as("requested by plan, not allowed by "
                + "flowform-plan; requests: %s%n%s", RbacCheck.summary(PLAN), TRANSCRIPT).isEmpty();
    }

    @Test
    void the_dry_runs_of_plan_are_allowed_by_the_apply_role() {
        List<ApiRequest> dryRuns = PLAN.stream().filter(ApiRequest::dryRun).toList();
        assertThat(dryRuns).as("plan dry-runs its writes").isNotEmpty()
                .allMatch(r -> List.of("create", "update", "delete").contains(r.verb()));
        Role apply = RbacCheck.role(RbacCheck.read(RBAC), "flowform-apply");
        assertThat(RbacCheck.missing(apply, NAMESPACE, dryRuns)).as("dry-run by plan, not allowed by flowform-apply; "
                + "requests: %s", RbacCheck.summary(dryRuns)).isEmpty();
    }

    @Test
    void apply_and_resume_request_only_what_the_apply_role_allows() {
        Role apply = RbacCheck.role(RbacCheck.read(RBAC), "flowform-apply");
        assertThat(RbacCheck.missing(apply, NAMESPACE, APPLY)).as("requested by apply, not allowed by flowform-apply; "
                + "requests: %s%n%s", RbacCheck.summary(APPLY), TRANSCRIPT).isEmpty();
    }

    @Test
    void the_roles_grant_nothing_beyond_what_was_requested_and_the_commented_extras() {
        List<HasMetadata> docs = RbacCheck.read(RBAC);
        for (String name : List.of("flowform-plan", "flowform-apply")) {
            List<ApiRequest> used = used(name);
            assertThat(RbacCheck.unused(RbacCheck.role(docs, name), NAMESPACE, used))
                    .as("granted by %s but never requested (requests: %s)", name, RbacCheck.summary(used))
                    .isSubsetOf(ALLOWED_EXTRA.get(name).keySet());
        }
        assertThat(ALLOWED_EXTRA.get("flowform-apply").keySet()).as("an allowed extra must be in the Role")
                .isSubsetOf(RbacCheck.grants(RbacCheck.role(docs, "flowform-apply")));
    }

    @Test
    void the_plan_role_is_read_only_and_every_role_is_bound() {
        List<HasMetadata> docs = RbacCheck.read(RBAC);
        assertThat(RbacCheck.grants(RbacCheck.role(docs, "flowform-plan")))
                .allMatch(g -> g.startsWith("get ") || g.startsWith("list ") || g.startsWith("watch "));
        Set<String> bound = Set.copyOf(docs.stream().filter(RoleBinding.class::isInstance).map(RoleBinding.class::cast)
                .map(b -> b.getRoleRef().getName()).toList());
        assertThat(bound).contains("flowform-plan", "flowform-apply");
    }

    /** @return every grant the runs needed, as (role, grant) */
    static Stream<String[]> neededGrants() {
        List<HasMetadata> docs = RbacCheck.read(RBAC);
        List<String[]> out = new ArrayList<>();
        for (String name : List.of("flowform-plan", "flowform-apply")) {
            for (String g : RbacCheck.grants(RbacCheck.role(docs, name))) {
                if (!ALLOWED_EXTRA.get(name).containsKey(g)) {
                    out.add(new String[] {name, g});
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} without \"{1}\" is reported")
    @MethodSource("neededGrants")
    void removing_a_needed_grant_makes_the_check_report_it(String roleName, String grant) {
        Role role = RbacCheck.role(RbacCheck.read(RBAC), roleName);
        Role cut = RbacCheck.without(role, grant);
        assertThat(RbacCheck.grants(cut)).doesNotContain(grant);
        assertThat(RbacCheck.missing(cut, NAMESPACE, used(roleName))).containsExactly(grant);
    }

    private static void planThenApplySavedPlanThenRefusedPlan() throws IOException {
        try (EmbeddedCluster cluster = start(SimulatedConnectRuntime::new)) {
            Path dir = config(cluster, tmp.resolve("a"));
            Path saved = tmp.resolve("a/plan.bin");
            run(cluster, PLAN, 2, CliRunner.fast(), "plan", dir, "a", "--detailed-exitcode", "--out", saved.toString());
            run(cluster, APPLY, 0, CliRunner.fast(), "apply", dir, "a", saved.toString());
            run(cluster, PLAN, 0, CliRunner.fast(), "plan", dir, "a", "--detailed-exitcode");
            // another state finds the objects marked as managed by the first: the plan is refused
            run(cluster, PLAN, 1, CliRunner.fast(), "plan", dir, "other");
        }
    }

    private static void crashedApplyThenResume() throws IOException {
        try (EmbeddedCluster cluster = start(SimulatedConnectRuntime::new)) {
            Path dir = config(cluster, tmp.resolve("b"));
            CrashResumeInProcessTest.CrashingJournal journal = new CrashResumeInProcessTest.CrashingJournal(5, true, s -> { });
            CliRunner crashing = new CliRunner(CliRunner.unattended().withJournalDecorator(journal::wrap));
            cluster.audit().clear();
            Throwable died = catchThrowable(() -> crashing.run(args("apply", dir, "b", "--auto-approve")));
            assertThat(died).isInstanceOf(CrashResumeInProcessTest.SimulatedCrash.class);
            APPLY.addAll(cluster.audit().drain());
            CliRunner.Result resumed = run(cluster, APPLY, 0, CliRunner.fast(), "apply", dir, "b", "--auto-approve");
            assertThat(resumed.out()).as("%s", resumed).contains("did not finish");
        }
    }

    private static void applyWhoseConnectorFails() throws IOException {
        try (EmbeddedCluster cluster = start(() -> new RejectingRuntime(new SimulatedConnectRuntime()))) {
            Path dir = config(cluster, tmp.resolve("c"));
            CliRunner.Result failed = run(cluster, APPLY, 1, CliRunner.fast(), "apply", dir, "c", "--auto-approve");
            assertThat(failed.toString()).contains("dc1-to-dc2-source");
        }
    }

    private static void createThenDestroyOwnedObjects() throws IOException {
        Path work = tmp.resolve("d");
        Files.createDirectories(work.resolve("seed"));
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(work.resolve("seed"))
                .settings(SimSettings.fast()).build())) {
            Path kubeconfig = cluster.writeKubeconfig(work.resolve("kubeconfig.yaml"));
            Path dir = Files.createDirectories(work.resolve("conf"));
            String connect = """
                    , "connect_cluster": { "edge-connect": { "replicas": 2, "version": "3.9.0",
                        "bootstrap_servers": "core-kafka-bootstrap:9093", "config": { "group.id": "edge-connect" } } }
                    """;
            String flow = """
                    , "replication_flow": { "edge-to-core": { "connect_cluster": "edge-connect",
                        "source": { "alias": "edge", "bootstrap_servers": "edge-kafka-bootstrap:9093" },
                        "target": { "alias": "core", "bootstrap_servers": "core-kafka-bootstrap:9093" } } }
                    """;
            String config = """
                    { "environment": { "d": { "kubernetes": { "kubeconfig": "%s", "context": "%s" },
                                              "namespace": "replication" } }
                      %s }
                    """;
            String kc = kubeconfig.toString().replace("\\", "\\\\");
            Files.writeString(dir.resolve("main.flow.json"), config.formatted(kc, EmbeddedCluster.CONTEXT, connect + flow));
            run(cluster, APPLY, 0, CliRunner.fast(), "apply", dir, "d", "--auto-approve");
            Files.writeString(dir.resolve("main.flow.json"), config.formatted(kc, EmbeddedCluster.CONTEXT, connect));
            CliRunner.Result destroy = run(cluster, APPLY, 0, CliRunner.fast(), "apply", dir, "d", "--auto-approve");
            assertThat(destroy.out()).contains("DELETE_CONNECTOR");
        }
    }

    /**
     * The {@code examples/mirrormaker2} KafkaMirrorMaker2 on a simulated Strimzi 0.48 (pods without the configuration
     * hash), moved to {@link #NAMESPACE}: plan, then apply with a forced roll after each worker step; then apply a
     * second, owned KafkaMirrorMaker2 that does not exist yet (created).
     */
    private static void mirrorMakerOnStrimzi048WithForcedRolls() throws IOException {
        Path work = tmp.resolve("e");
        Path seed = Files.createDirectories(work.resolve("seed"));
        String yaml = Files.readString(Path.of("examples", "mirrormaker2", "seed", "mm2.yaml"));
        Files.writeString(seed.resolve("mm2.yaml"), yaml.lines().filter(l -> !l.contains("strimzi.io/configuration-hash"))
                .collect(java.util.stream.Collectors.joining("\n", "", "\n")).replace("kafka:0.49.0-kafka", "kafka:0.48.0-kafka")
                .replace("namespace: mirror", "namespace: " + NAMESPACE).replace(".mirror.svc", "." + NAMESPACE + ".svc"));
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed)
                .settings(SimSettings.fast().withStrimziVersion("0.48.0")).build())) {
            Path dir = CliFiles.copy(Path.of("examples", "mirrormaker2"), work.resolve("conf"));
            Path kubeconfig = cluster.writeKubeconfig(work.resolve("kubeconfig.yaml"));
            String text = Files.readString(dir.resolve("main.flow.json"));
            String embedded = "\"embedded\": {\n          \"seed\": \"./seed\"\n        }";
            assertThat(text).contains(embedded, "\"namespace\": \"mirror\"");
            Files.writeString(dir.resolve("main.flow.json"), text.replace(embedded, "\"kubeconfig\": \""
                    + kubeconfig.toString().replace("\\", "\\\\") + "\", \"context\": \"" + EmbeddedCluster.CONTEXT + "\"")
                    .replace("\"namespace\": \"mirror\"", "\"namespace\": \"" + NAMESPACE + "\""));
            run(cluster, PLAN, 2, CliRunner.fast(), "plan", dir, "e", "--detailed-exitcode");
            CliRunner.Result apply = run(cluster, APPLY, 0, CliRunner.fast(), "apply", dir, "e", "--auto-approve");
            assertThat(apply.out()).contains("FORCE_ROLL", "pods restarted by the forced roll", "Apply complete!");

            String owned = Files.readString(dir.resolve("main.flow.json")).replace("\"mirrormaker2\": {", """
                    "mirrormaker2": {
                        "mm2-new": {
                          "manage": "own", "replicas": 1,
                          "target": {"alias": "dc2", "bootstrap_servers": "dc2-kafka-bootstrap:9092",
                                     "config": {"group.id": "mm2-new-cluster"}},
                          "mirror": [{"source": {"alias": "dc1", "bootstrap_servers": "dc1-kafka-bootstrap:9092"},
                                      "exactly_once": true}]
                        },""");
            Files.writeString(dir.resolve("main.flow.json"), owned);
            CliRunner.Result create = run(cluster, APPLY, 0, CliRunner.fast(), "apply", dir, "e", "--auto-approve");
            assertThat(create.out()).contains("mirrormaker2.mm2-new will be created", "Apply complete!");
        }
    }

    private static EmbeddedCluster start(java.util.function.Supplier<ConnectRuntime> runtime) {
        return EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(Path.of("examples", "quickstart", "seed"))
                .settings(SimSettings.fast()).connectRuntime(runtime).build());
    }

    /** @return the quickstart, its environment reaching {@code cluster} through a kubeconfig context */
    static Path config(EmbeddedCluster cluster, Path work) throws IOException {
        Path dir = CliFiles.quickstart(work.resolve("conf"));
        Path kubeconfig = cluster.writeKubeconfig(work.resolve("kubeconfig.yaml"));
        String text = Files.readString(dir.resolve("main.flow.json"));
        String embedded = "\"embedded\": {\n          \"seed\": \"./seed\"\n        }";
        assertThat(text).contains(embedded);
        Files.writeString(dir.resolve("main.flow.json"), text.replace(embedded, "\"kubeconfig\": \""
                + kubeconfig.toString().replace("\\", "\\\\") + "\", \"context\": \"" + EmbeddedCluster.CONTEXT + "\""));
        return dir;
    }

    private static CliRunner.Result run(EmbeddedCluster cluster, List<ApiRequest> into, int exit, CliRunner cli, String cmd,
                                        Path dir, String state, String... more) {
        cluster.audit().clear();
        CliRunner.Result r = cli.run(args(cmd, dir, state, more));
        into.addAll(cluster.audit().drain());
        TRANSCRIPT.append("=== ").append(cmd).append(' ').append(String.join(" ", more)).append('\n').append(r).append('\n');
        assertThat(r.exitCode()).as("%s", r).isEqualTo(exit);
        return r;
    }

    private static String[] args(String cmd, Path dir, String state, String... more) {
        List<String> a = new ArrayList<>(List.of(cmd, "--no-color", "--dir", dir.toString(), "--state-dir",
                dir.resolveSibling("state-" + state).toString()));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    /** Kafka Connect that rejects every configuration of the MirrorSourceConnector, as a worker rejects an invalid one. */
    private record RejectingRuntime(ConnectRuntime inner) implements ConnectRuntime {
        @Override
        public void startWorker(WorkerSpec worker) {
            inner.startWorker(worker);
        }

        @Override
        public boolean healthy(String pod) {
            return inner.healthy(pod);
        }

        @Override
        public void stopWorker(String pod, boolean kill) {
            inner.stopWorker(pod, kill);
        }

        @Override
        public RestResult putConnectorConfig(String cluster, String name, Map<String, String> config) {
            if (name.endsWith("-source")) {
                return new RestResult(400, "Connector configuration is invalid: rejected by the test's worker");
            }
            return inner.putConnectorConfig(cluster, name, config);
        }

        @Override
        public boolean holdsConfig(String cluster, String name, Map<String, String> config) {
            return !name.endsWith("-source") && inner.holdsConfig(cluster, name, config);
        }

        @Override
        public RestResult setTargetState(String cluster, String name, TargetState state) {
            return inner.setTargetState(cluster, name, state);
        }

        @Override
        public RestResult deleteConnector(String cluster, String name) {
            return inner.deleteConnector(cluster, name);
        }

        @Override
        public RestResult restartTask(String cluster, String name, int task) {
            return inner.restartTask(cluster, name, task);
        }

        @Override
        public Optional<ConnectorStatus> status(String cluster, String name) {
            return inner.status(cluster, name);
        }

        @Override
        public Set<String> connectors(String cluster) {
            return inner.connectors(cluster);
        }

        @Override
        public List<String> topics(String cluster, String name) {
            return inner.topics(cluster, name);
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
