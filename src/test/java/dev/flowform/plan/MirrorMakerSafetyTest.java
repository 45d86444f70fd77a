package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.apply.Edits;
import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.EosMode;
import dev.flowform.model.ManageMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The KafkaMirrorMaker2 planner over the cross product of live situations (worker mode in the spec, how far the roll
 * got, what the pods still run, the source connector's exactly-once keys) and desired ones (exactly-once or not, the
 * worker mode declared or derived), each plan executed symbolically on the world and checked: {@code required} only
 * on the source connector and only once every worker runs {@code enabled}, never {@code enabled} while workers still
 * run {@code disabled}, never a worker mode below {@code enabled} while the source connector requires exactly-once,
 * never a forced roll where the operator rolls by itself (and always one, Strimzi 0.46-0.48, where it does not: the
 * pods keep their mode until then), over every state of the source connector (running, paused, failed, a failed task
 * while Ready, missing),
 * no steps against a paused resource or one whose last reconcile failed, every refusal names its rule, and an
 * applyable plan converges (planning again gives no steps). Run for both layouts: {@code v1beta2}
 * ({@code spec.clusters[]}) and {@code v1} ({@code spec.target}, {@code spec.mirrors[].source}).
 */
class MirrorMakerSafetyTest {

    private static final String SRC = "sourceConnector";

    private static final EosMode[] ALL_DECLARED = {null, EosMode.DISABLED, EosMode.PREPARING, EosMode.ENABLED};

    /** The source connector's state in the resource's status. */
    enum Connector { RUNNING, PAUSED, FAILED_CONNECTOR, FAILED_TASK_WHILE_READY, MISSING }

    @ParameterizedTest(name = "v1 layout: {0}")
    @ValueSource(booleans = {false, true})
    void every_plan_is_safe_and_converges(boolean v1) {
        List<String> failures = new ArrayList<>();
        Set<String> outcomes = new TreeSet<>();
        int cases = 0;
        for (boolean noRoll : new boolean[] {false, true}) {
            for (Connector connector : Connector.values()) {
                // the full product with a running connector and the operator rolling by itself; otherwise the mode
                // derived or enabled, and the other connector states with the pods on the spec's mode or disabled,
                // settled or after a failed reconcile
                boolean full = connector == Connector.RUNNING;
                EosMode[] declaredModes = full && !noRoll ? ALL_DECLARED : full ? new EosMode[] {null, EosMode.ENABLED}
                        : new EosMode[] {null};
                EosMode[] podModes = full ? new EosMode[] {null, EosMode.DISABLED, EosMode.PREPARING, EosMode.ENABLED}
                        : new EosMode[] {null, EosMode.DISABLED};
                MirrorMakerWorld.Roll[] rolls = full ? MirrorMakerWorld.Roll.values()
                        : new MirrorMakerWorld.Roll[] {MirrorMakerWorld.Roll.ROLLED, MirrorMakerWorld.Roll.NOT_READY};
                for (String mode : new String[] {null, "disabled", "preparing", "enabled", "bogus"}) {
                    for (MirrorMakerWorld.Roll roll : rolls) {
                        for (EosMode podsRun : podModes) {
                            for (int source = 0; source < 3; source++) {
                                for (boolean eos : new boolean[] {true, false}) {
                                    for (EosMode declared : declaredModes) {
                                        cases++;
                                        String name = (noRoll ? "no-roll/" : "") + connector + "/" + mode + "/" + roll + "/"
                                                + podsRun + "/src" + source + "/eos=" + eos + "/decl=" + declared;
                                        MirrorMakerWorld w = world(mode, roll, podsRun, source, v1);
                                        w.noRoll = noRoll;
                                        connector(w, connector);
                                        List<String> v = check(w, desired(eos, declared), outcomes);
                                        if (!v.isEmpty() && failures.size() < 20) {
                                            failures.add(name + ": " + v);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assertThat(cases).isEqualTo(5 * 4 * 4 * 3 * 2 * 4 + 5 * 4 * 4 * 3 * 2 * 2 + 2 * 4 * (5 * 2 * 2 * 3 * 2));
        assertThat(failures).isEmpty();
        assertThat(outcomes).contains("refused", "set-preparing", "set-enabled", "set-disabled", "wait-in-progress",
                "connector-required", "connector-required-removed", "no-changes", "forced-roll", "task-restart");
    }

    /** Puts the source connector of {@code w}'s status in {@code state}. */
    private static void connector(MirrorMakerWorld w, Connector state) {
        String name = w.connectors.get(0).get("name").toString();
        switch (state) {
            case RUNNING -> { }
            case PAUSED -> w.connectors.set(0, MirrorMakerWorld.connector(name, "PAUSED", "PAUSED", "PAUSED"));
            case FAILED_CONNECTOR -> w.connectors.set(0, MirrorMakerWorld.connector(name, "FAILED"));
            case FAILED_TASK_WHILE_READY -> w.connectors.set(0, MirrorMakerWorld.connector(name, "RUNNING", "RUNNING", "FAILED"));
            case MISSING -> w.connectors.remove(0);
        }
    }

    private static MirrorMakerWorld world(String mode, MirrorMakerWorld.Roll roll, EosMode podsRun, int source, boolean v1) {
        MirrorMakerWorld w = new MirrorMakerWorld(mode, v1);
        w.roll = roll;
        w.podsRun = podsRun;
        if (roll == MirrorMakerWorld.Roll.PAUSED) {
            w.annotations.put("strimzi.io/pause-reconciliation", "true");
        }
        if (source >= 1) {
            w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
        }
        if (source == 2) {
            w.sourceConfig().put("exactly.once.support", "required");
        }
        return w;
    }

    private static DesiredMirrorMaker2 desired(boolean eos, EosMode declared) {
        return new DesiredMirrorMaker2("mirrormaker2.mm2", MirrorMakerWorld.NAME, MirrorMakerWorld.NS, ManageMode.ADOPT,
                declared, null, null, "dc2", null, Map.of(), List.of(MirrorMakerWorld.mirror(eos)), Set.of(), null)
                .derived(MirrorMakerWorld.NS);
    }

    /** Plans, executes the plan on {@code w} symbolically, checks every step, and plans again. */
    private static List<String> check(MirrorMakerWorld w, DesiredMirrorMaker2 d, Set<String> outcomes) {
        List<String> v = new ArrayList<>();
        Plan p = MirrorMakerPlannerTest.plan(d, w.toLive());
        for (Diagnostic diag : p.diagnostics()) {
            if (diag.isError() && !diag.detail().contains("(rule ")) {
                v.add("refusal without rule: " + diag.summary());
            }
        }
        if (!p.isApplyable()) {
            outcomes.add("refused");
            return v;
        }
        if (p.steps().isEmpty()) {
            outcomes.add("no-changes");
            return v;
        }
        if (w.roll == MirrorMakerWorld.Roll.PAUSED || w.roll == MirrorMakerWorld.Roll.NOT_READY) {
            v.add("steps against a " + w.roll + " resource");
            return v;
        }
        execute(p, w, v, outcomes);
        Plan again = MirrorMakerPlannerTest.plan(d, w.toLive());
        if (!again.steps().isEmpty() || !again.isApplyable()) {
            v.add("does not converge: " + MirrorMakerPlannerTest.shape(again));
        }
        return v;
    }

    /** The pods' mode: what they still run during a roll, else the spec's. */
    private static EosMode running(MirrorMakerWorld w) {
        if (w.podsRun != null) {
            return w.podsRun;
        }
        return EosMode.parse((String) w.workerConfig().get(EosMode.CONFIG_KEY)).orElse(null);
    }

    /**
     * Executes the plan on the world as the operator would: a worker step rewrites the ConfigMap and (unless the world
     * is a Strimzi 0.46-0.48 one) rolls the pods at its wait; there the pods restart only through a forced roll (the
     * PodSet annotation, then its wait); a roll or a connector change restarts failed tasks, as does the restart
     * annotation. In a no-roll world whose pods lag behind the spec unseen (an outside change), {@code required} on
     * workers not running {@code enabled} is refused by Kafka Connect itself (DistributedHerder's preflight check) and
     * is not counted as unsafe; a step that raises the workers to {@code enabled} is checked everywhere.
     */
    @SuppressWarnings("unchecked")
    private static void execute(Plan p, MirrorMakerWorld w, List<String> v, Set<String> outcomes) {
        boolean unseenLag = w.noRoll && w.podsRun != null;
        for (Step s : p.steps()) {
            if (s.kind() == StepKind.FORCE_ROLL) {
                outcomes.add("forced-roll");
                if (!w.noRoll) {
                    v.add("forced roll although the operator rolls the pods");
                }
                w.manualRoll = true;
                continue;
            }
            if (s.kind() == StepKind.WAIT_FOR_FORCED_ROLL) {
                if (!w.manualRoll) {
                    v.add("forced-roll wait without the annotation");
                }
                w.manualRoll = false;
                w.podsRun = null;
                w.roll = MirrorMakerWorld.Roll.ROLLED;
                restartTasks(w);
                continue;
            }
            if (s.kind() == StepKind.ANNOTATE && s.payload() instanceof StepPayload.PatchObject po
                    && po.edits().stream().anyMatch(e -> e.key().equals("strimzi.io/restart-connector-task"))) {
                outcomes.add("task-restart");
                restartTasks(w);
                continue;
            }
            if (s.payload() instanceof StepPayload.SetWorkerEos set) {
                EosMode before = running(w);
                outcomes.add("set-" + set.mode().value());
                if (set.mode() == EosMode.ENABLED && before != EosMode.PREPARING && before != EosMode.ENABLED) {
                    v.add("enabled while the workers run " + before);
                }
                if (set.mode() != EosMode.ENABLED && "required".equals(w.sourceConfig().get("exactly.once.support"))) {
                    v.add(set.mode().value() + " while the source connector requires exactly-once");
                }
                w.podsRun = before;
                patch(w, set.edits());
            } else if (s.payload() instanceof StepPayload.WaitForRoll wait) {
                if (wait.generation() != null) {
                    outcomes.add("wait-in-progress");
                }
                if (!w.noRoll) {
                    w.podsRun = null;
                    restartTasks(w);
                }
                w.roll = MirrorMakerWorld.Roll.ROLLED;
            } else if (s.payload() instanceof StepPayload.PatchObject po) {
                for (FieldEdit e : po.edits()) {
                    String path = String.join(".", e.path());
                    if (!path.contains(SRC) && (e.key().equals("exactly.once.support") || e.key().endsWith("isolation.level"))) {
                        v.add("exactly-once key outside sourceConnector.config: " + path);
                    }
                    if (e.key().equals("exactly.once.support") && "required".equals(e.value())) {
                        outcomes.add("connector-required");
                        if ((running(w) != EosMode.ENABLED && !unseenLag)
                                || !"enabled".equals(w.workerConfig().get(EosMode.CONFIG_KEY))) {
                            v.add("required while the workers run " + running(w));
                        }
                    }
                    if (e.key().equals("exactly.once.support") && e.remove()) {
                        outcomes.add("connector-required-removed");
                    }
                }
                patch(w, po.edits());
                restartTasks(w);
            }
        }
    }

    /** The operator restarts failed tasks of running connectors (a roll, a connector PUT, the restart annotation). */
    @SuppressWarnings("unchecked")
    private static void restartTasks(MirrorMakerWorld w) {
        for (Map<String, Object> c : w.connectors) {
            if (!"FAILED".equals(((Map<String, Object>) c.get("connector")).get("state"))) {
                for (Object t : (List<Object>) c.get("tasks")) {
                    ((Map<String, Object>) t).replaceAll((k, val) -> k.equals("state") && "FAILED".equals(val) ? "RUNNING" : val);
                }
            }
        }
    }

    private static void patch(MirrorMakerWorld w, List<FieldEdit> edits) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("spec", w.spec);
        Edits.apply(object, edits);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) object.get("spec");
        w.spec.clear();
        w.spec.putAll(spec);
        w.generation++;
    }
}
