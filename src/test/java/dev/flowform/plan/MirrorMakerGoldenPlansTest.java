package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.render.DiagnosticRenderer;
import dev.flowform.render.PlanRenderer;
import dev.flowform.render.Style;
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
import org.junit.jupiter.api.TestFactory;

/**
 * Golden plans of KafkaMirrorMaker2 situations ({@code src/test/resources/golden-plans/mm2-*}), rendered and encoded
 * as {@link GoldenPlansTest} does, in both layouts ({@code mm2-v1beta2-*}, {@code mm2-v1-*}), also with Strimzi 0.46-0.48's MirrorMaker 2 pods that the
 * operator does not roll ({@code *-no-roll-*}: forced rolls); regenerate with {@code -Dgolden.update=true} and review the diff.
 */
class MirrorMakerGoldenPlansTest {

    private static final Path DIR = Path.of("src", "test", "resources", "golden-plans");
    private static final boolean UPDATE = Boolean.getBoolean("golden.update");
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private static final StateRef STATE = new StateRef("6f1c2a9e-0b7d-4e55-9a31-2c8d4b7e1f00", 42);

    @TestFactory
    Stream<DynamicTest> golden_plans() {
        Map<String, Supplier<Object[]>> cases = new LinkedHashMap<>();
        cases.put("mm2-v1beta2-eos-rollout", () -> new Object[] {MirrorMakerWorld.adopt(true), new MirrorMakerWorld(null).toLive()});
        cases.put("mm2-v1beta2-disable-reverse-order", () -> {
            MirrorMakerWorld w = new MirrorMakerWorld("enabled");
            w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
            w.sourceConfig().put("exactly.once.support", "required");
            return new Object[] {MirrorMakerWorld.adopt(false), w.toLive()};
        });
        cases.put("mm2-v1beta2-roll-in-progress", () -> {
            MirrorMakerWorld w = new MirrorMakerWorld("preparing");
            w.roll = MirrorMakerWorld.Roll.IN_PROGRESS;
            w.podsRun = EosMode.DISABLED;
            return new Object[] {MirrorMakerWorld.adopt(true), w.toLive()};
        });
        cases.put("mm2-v1beta2-create-owned", () -> new Object[] {new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2",
                "replication", ManageMode.OWN, null, 2, "3.9.0", "dc2", "dc2-kafka-bootstrap:9092",
                Map.of("group.id", "mm2-cluster"), List.of(new DesiredMirror("dc1", "dc1-kafka-bootstrap:9092", Map.of(),
                "orders.*", ".*", 2, Map.of("replication.factor", "3"), Map.of("checkpoints.topic.replication.factor", "3"),
                true, null)), Set.of(), null).derived("replication"), LiveState.empty(StrimziApi.V1BETA2)});
        cases.put("mm2-v1-eos-rollout", () -> new Object[] {MirrorMakerWorld.adopt(true),
                new MirrorMakerWorld(null, true).toLive()});
        cases.put("mm2-v1-create-owned", () -> new Object[] {new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2",
                "replication", ManageMode.OWN, null, 2, "3.9.0", "dc2", "dc2-kafka-bootstrap:9092",
                Map.of("group.id", "mm2-cluster", "config.storage.topic", "mm2-cluster-configs", "offset.storage.topic",
                "mm2-cluster-offsets", "status.storage.topic", "mm2-cluster-status"), List.of(new DesiredMirror("dc1",
                "dc1-kafka-bootstrap:9092", Map.of(), "orders.*", ".*", 2, Map.of("replication.factor", "3"),
                Map.of("checkpoints.topic.replication.factor", "3"), true, null)), Set.of(), null).derived("replication"),
                LiveState.empty(StrimziApi.V1)});
        for (boolean v1 : new boolean[] {false, true}) {
            String layout = v1 ? "mm2-v1-" : "mm2-v1beta2-";
            cases.put(layout + "no-roll-eos-rollout", () -> {
                MirrorMakerWorld w = new MirrorMakerWorld(null, v1);
                w.noRoll = true;
                return new Object[] {MirrorMakerWorld.adopt(true), w.toLive()};
            });
            cases.put(layout + "no-roll-disable-reverse-order", () -> {
                MirrorMakerWorld w = new MirrorMakerWorld("enabled", v1);
                w.noRoll = true;
                w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
                w.sourceConfig().put("exactly.once.support", "required");
                return new Object[] {MirrorMakerWorld.adopt(false), w.toLive()};
            });
        }
        return cases.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            Object[] s = e.getValue().get();
            check(e.getKey(), MirrorMakerWorld.desired((DesiredMirrorMaker2) s[0]), (LiveState) s[1]);
        }));
    }

    private static void check(String name, DesiredState desired, LiveState live) throws IOException {
        Plan plan = Planner.plan(desired, live, new PlanRequest("prod", STATE, NOW, PlanOptions.DEFAULT, List.of(),
                v -> "sha256:" + Integer.toHexString(v.hashCode())));
        String json = PlanCodec.toJson(plan, "test", PlanCodec.MASK);
        Plan decoded = PlanCodec.decode(json);
        String text = text(decoded);
        assertThat(text(plan)).as("the document holds everything the text shows").isEqualTo(text);
        assertThat(PlanCodec.toJson(decoded, "test", PlanCodec.MASK)).as("decode/encode round trip").isEqualTo(json);
        Path folder = DIR.resolve(name);
        if (UPDATE) {
            Files.createDirectories(folder);
            Files.writeString(folder.resolve("plan.txt"), text);
            Files.writeString(folder.resolve("plan.json"), json);
            return;
        }
        assertThat(folder.resolve("plan.txt")).as("golden file missing: run with -Dgolden.update=true").exists();
        assertThat(text).isEqualTo(Files.readString(folder.resolve("plan.txt")));
        assertThat(json).isEqualTo(Files.readString(folder.resolve("plan.json")));
    }

    private static String text(Plan plan) {
        StringBuilder sb = new StringBuilder();
        for (Diagnostic d : plan.diagnostics()) {
            sb.append(DiagnosticRenderer.render(d, Map.of(), Style.PLAIN));
        }
        if (!plan.diagnostics().isEmpty()) {
            sb.append('\n');
        }
        sb.append(plan.isApplyable() ? PlanRenderer.render(plan, Style.PLAIN) : "(not applyable: the plan has errors)\n");
        return sb.toString();
    }
}
