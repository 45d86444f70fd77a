package dev.flowform.apply;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.live.StrimziResources;
import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.StrimziApi;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * {@link DryRun} against the embedded cluster, whose dry runs validate and store nothing: each step's write is checked
 * as the object will be when the step runs (the edits of earlier steps on it included, an object an earlier step
 * creates as that create), a refusal ends its object's checks, and an RBAC refusal of the dry run is told apart.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class DryRunTest {
    private static final String NS = "mirror";
    private static final String V = "kafka.strimzi.io/v1beta2";
    private static final ObjectRef KC = new ObjectRef(V, "KafkaConnect", NS, "dr-connect");
    private static final ObjectRef SOURCE = new ObjectRef(V, "KafkaConnector", NS, "primary-to-dr-source");
    private static final ObjectRef CHECKPOINT = new ObjectRef(V, "KafkaConnector", NS, "primary-to-dr-checkpoint");
    private static final ObjectRef NEW = new ObjectRef(V, "KafkaConnector", NS, "primary-to-dr-new");

    private EmbeddedCluster cluster;
    private final List<Step> steps = new ArrayList<>();

    @BeforeEach
    void start() throws URISyntaxException {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder()
                .seedDir(Path.of(DryRunTest.class.getResource("/sim/v1beta2").toURI())).settings(SimSettings.fast()).build());
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private DryRun dryRun() {
        return new DryRun(Fabric8ClusterWriter.dryRun(cluster.client()), 4);
    }

    private void step(StepKind kind, ObjectRef ref, StepPayload payload) {
        steps.add(new Step(steps.size() + 1, kind, "address." + ref.name(), ref, steps.isEmpty() ? List.of()
                : List.of(steps.size()), payload, kind.name()));
    }

    private static FieldEdit set(Object value, String... path) {
        return FieldEdit.set(List.of(path), value, false);
    }

    private static Map<String, Object> connector(String name) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("apiVersion", V);
        m.put("kind", "KafkaConnector");
        m.put("metadata", Map.of("name", name, "namespace", NS, "labels", Map.of("strimzi.io/cluster", "dr-connect")));
        m.put("spec", Map.of("class", "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector", "tasksMax", 1));
        return m;
    }

    private GenericKubernetesResource read(ObjectRef ref) {
        return cluster.client().genericKubernetesResources(StrimziResources.forKind(ref.kind(), StrimziApi.V1BETA2))
                .inNamespace(NS).withName(ref.name()).get();
    }

    @Test
    void every_write_of_a_rollout_passes_and_nothing_is_stored() {
        String before = read(KC).getMetadata().getResourceVersion();
        step(StepKind.SET_WORKER_EOS, KC, new StepPayload.SetWorkerEos(EosMode.PREPARING,
                List.of(set("preparing", "spec", "config", "exactly.once.source.support"))));
        step(StepKind.WAIT_FOR_ROLL, KC, new StepPayload.WaitForRoll(EosMode.PREPARING, null));
        step(StepKind.SET_WORKER_EOS, KC, new StepPayload.SetWorkerEos(EosMode.ENABLED,
                List.of(set("enabled", "spec", "config", "exactly.once.source.support"))));
        step(StepKind.UPDATE_CONNECTOR, SOURCE, new StepPayload.PatchObject(List.of(
                set("required", "spec", "config", "exactly.once.support"), set("stopped", "spec", "state"))));
        step(StepKind.CREATE_CONNECTOR, NEW, new StepPayload.CreateObject(connector(NEW.name()), Set.of()));
        step(StepKind.UPDATE_CONNECTOR, NEW, new StepPayload.PatchObject(List.of(set(2, "spec", "tasksMax"))));
        step(StepKind.DELETE_CONNECTOR, CHECKPOINT, new StepPayload.DeleteObject());
        step(StepKind.CREATE_CONNECTOR, CHECKPOINT, new StepPayload.CreateObject(connector(CHECKPOINT.name()), Set.of()));

        assertThat(dryRun().check(steps)).isEmpty();
        assertThat(read(KC).getMetadata().getResourceVersion()).isEqualTo(before);
        assertThat(read(NEW)).isNull();
        assertThat(read(CHECKPOINT)).isNotNull();
        assertThat(cluster.audit().requests()).filteredOn(r -> !r.verb().equals("get") && !r.verb().equals("list")
                && !r.verb().equals("watch")).isNotEmpty().allMatch(r -> r.dryRun());
    }

    @Test
    void a_later_step_is_checked_on_the_object_as_the_earlier_steps_leave_it_and_a_refusal_ends_its_object() {
        step(StepKind.UPDATE_CONNECTOR, SOURCE, new StepPayload.PatchObject(List.of(set("halted", "spec", "state"))));
        step(StepKind.UPDATE_CONNECTOR, SOURCE, new StepPayload.PatchObject(List.of(set(2, "spec", "tasksMax"))));
        step(StepKind.CREATE_CONNECTOR, NEW, new StepPayload.CreateObject(connector(NEW.name()), Set.of()));
        step(StepKind.UPDATE_CONNECTOR, NEW, new StepPayload.PatchObject(List.of(set("three", "spec", "tasksMax"))));
        step(StepKind.UPDATE_CONNECT_CLUSTER, KC, new StepPayload.PatchObject(List.of(set(4, "spec", "replicas"))));

        List<DryRun.Finding> found = dryRun().check(steps);
        assertThat(found).extracting(f -> f.step().id()).containsExactly(1, 4);
        assertThat(found).allMatch(f -> f.outcome() == DryRun.Outcome.REFUSED);
        assertThat(found.get(0).message()).contains("HTTP 422", "spec.state: Unsupported value: \"halted\": supported values:");
        assertThat(found.get(1).message()).contains("spec.tasksMax: Invalid value: \"string\"");
    }

    @Test
    void rbac_refusing_the_dry_run_is_told_apart_from_a_refused_write() {
        cluster.faults().forbid("update", "kafkaconnects");
        cluster.faults().denyField("KafkaConnector", "/spec/config/exactly.once.support", "not here");
        step(StepKind.UPDATE_CONNECT_CLUSTER, KC, new StepPayload.PatchObject(List.of(set(4, "spec", "replicas"))));
        step(StepKind.UPDATE_CONNECTOR, SOURCE, new StepPayload.PatchObject(List.of(
                set("required", "spec", "config", "exactly.once.support"))));

        List<DryRun.Finding> found = dryRun().check(steps);
        assertThat(found).extracting(DryRun.Finding::outcome)
                .containsExactly(DryRun.Outcome.NOT_ALLOWED, DryRun.Outcome.REFUSED);
        assertThat(found.get(1).message()).contains("admission webhook \"policy.flowform.dev\" denied the request: not here");
    }
}
