package dev.flowform.plan;

import dev.flowform.apply.Edits;
import dev.flowform.model.ConnectorRole;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.rules.StopBeforeChange;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Executes a plan's steps against a {@link World} symbolically and reports every step that would pass
 * through an unsafe state. It tracks what the planner cannot see directly: the set of EOS modes the
 * Connect workers may be running (a roll in progress runs old and new mode side by side), whether a roll
 * is still pending, and whether the operator's last reconcile failed.
 *
 * <p>Invariants (the planner's safety rules, {@link Rule}; the EOS ones from KIP-618):
 * <ul>
 *   <li>rule 2: {@code enabled} is set on an existing cluster only when every worker already runs
 *       {@code preparing} or {@code enabled} after a completed roll;</li>
 *   <li>rule 3: a connector gets {@code exactly.once.support=required} only when every worker runs
 *       {@code enabled} after a completed roll, and never a checkpoint or heartbeat connector;</li>
 *   <li>rule 5: the workers leave {@code enabled} only when no connector on the cluster requires EOS;</li>
 *   <li>rule 6: the connector-resources annotation is added only with the explicit flag;</li>
 *   <li>rule 7: a roll wait expects the mode the spec has, and never waits on a generation whose reconcile
 *       failed; every KafkaConnect patch is followed by a roll wait; nothing touches a paused cluster;</li>
 *   <li>connector waits need the annotation and at least one worker; deletions touch only connectors
 *       flowform created in this environment.</li>
 * </ul>
 */
final class SymbolicApply {

    private final World world;
    private final String environment;
    private final boolean annotationAllowed;
    private final List<String> violations = new ArrayList<>();
    private Set<EosMode> workerModes;
    private boolean pendingRoll;
    private boolean failedGeneration;
    private boolean created;
    private boolean clusterPatched;
    private boolean specPatched;
    private final boolean paused;

    SymbolicApply(World world, String environment, boolean annotationAllowed) {
        this.world = world;
        this.environment = environment;
        this.annotationAllowed = annotationAllowed;
        if (world.kc == null) {
            workerModes = EnumSet.noneOf(EosMode.class);
            paused = false;
            return;
        }
        int replicas = World.replicas(world.kc);
        EosMode spec = World.mode(world.kc);
        paused = world.roll == World.Roll.PAUSED;
        workerModes = EnumSet.noneOf(EosMode.class);
        if (replicas > 0) {
            workerModes.add(spec);
            if (world.roll != World.Roll.ROLLED && world.roll != World.Roll.PAUSED) {
                workerModes.add(world.previous);
            }
        }
        pendingRoll = world.roll == World.Roll.IN_PROGRESS || world.roll == World.Roll.NOT_READY
                || (world.roll == World.Roll.PODS_BEHIND && replicas > 0);
        failedGeneration = world.roll == World.Roll.NOT_READY;
    }

    /** @return true when the plan patched the KafkaConnect (spec or annotations) */
    boolean clusterPatched() {
        return clusterPatched;
    }

    /** Runs every step; returns the violations (empty when the plan is safe). */
    List<String> run(Plan plan) {
        return run(plan.steps());
    }

    /** Runs the steps in this order (one the step graph allows, see {@link Interleavings}); returns the violations. */
    List<String> run(List<Step> order) {
        for (Step s : order) {
            step(s);
        }
        if (specPatched && pendingRoll) {
            violations.add("the plan patches the KafkaConnect spec but does not wait for the roll at the end");
        }
        if (!pendingRoll && world.kc != null && specPatched) {
            world.roll = World.Roll.ROLLED;
        }
        return violations;
    }

    private void step(Step s) {
        boolean onCluster = "KafkaConnect".equals(s.object().kind());
        if (onCluster && paused) {
            violations.add("step " + s.id() + " " + s.kind() + " on a cluster whose reconciliation is paused");
        }
        switch (s.kind()) {
            case CREATE_CONNECT_CLUSTER -> {
                StepPayload.CreateObject c = (StepPayload.CreateObject) s.payload();
                world.kc = World.deepCopy(c.manifest());
                World.map(world.kc.get("metadata")).put("generation", 1L);
                world.roll = World.Roll.IN_PROGRESS;
                world.previous = World.mode(world.kc);
                created = true;
                clusterPatched = true;
                specPatched = true;
                pendingRoll = true;
                workerModes = EnumSet.noneOf(EosMode.class);
            }
            case SET_WORKER_EOS -> {
                StepPayload.SetWorkerEos p = (StepPayload.SetWorkerEos) s.payload();
                if (p.mode() == EosMode.ENABLED && !created
                        && (pendingRoll || !Set.of(EosMode.PREPARING, EosMode.ENABLED).containsAll(workerModes))) {
                    violations.add("step " + s.id() + " sets enabled while workers may run " + workerModes
                            + (pendingRoll ? " (roll not complete)" : "") + " [rule 2]");
                }
                if (p.mode() != EosMode.ENABLED && world.kc != null && World.mode(world.kc) == EosMode.ENABLED) {
                    for (Map.Entry<String, Map<String, Object>> e : world.connectors.entrySet()) {
                        if (requires(e.getValue())) {
                            violations.add("step " + s.id() + " sets " + p.mode() + " while connector " + e.getKey()
                                    + " requires exactly-once support [rule 5]");
                        }
                    }
                }
                patchCluster(s, p.edits());
                workerModes.add(p.mode());
            }
            case UPDATE_CONNECT_CLUSTER -> patchCluster(s, ((StepPayload.PatchObject) s.payload()).edits());
            case ANNOTATE -> {
                if (!annotationAllowed) {
                    violations.add("step " + s.id() + " adds the connector-resources annotation without "
                            + "--enable-connector-resources [rule 6]");
                }
                Edits.apply(world.kc, ((StepPayload.PatchObject) s.payload()).edits());
                clusterPatched = true;
            }
            case WAIT_FOR_ROLL -> {
                StepPayload.WaitForRoll w = (StepPayload.WaitForRoll) s.payload();
                if (world.kc == null) {
                    violations.add("step " + s.id() + " waits for a KafkaConnect that does not exist");
                    return;
                }
                if (w.expectedMode() != World.mode(world.kc)) {
                    violations.add("step " + s.id() + " waits for workers with " + w.expectedMode() + " but the spec says "
                            + World.mode(world.kc) + " [rule 7]");
                }
                if (failedGeneration) {
                    violations.add("step " + s.id() + " waits on a generation whose reconcile failed [rule 7]");
                }
                if (w.generation() != null && w.generation() != World.generation(world.kc)) {
                    violations.add("step " + s.id() + " waits for generation " + w.generation() + " but the object is at "
                            + World.generation(world.kc));
                }
                workerModes = EnumSet.noneOf(EosMode.class);
                if (World.replicas(world.kc) > 0) {
                    workerModes.add(World.mode(world.kc));
                }
                pendingRoll = false;
                world.roll = World.Roll.ROLLED;
            }
            case CREATE_CONNECTOR -> {
                StepPayload.CreateObject c = (StepPayload.CreateObject) s.payload();
                Map<String, Object> body = World.deepCopy(c.manifest());
                checkConnectorWrite(s, body);
                World.map(body.get("metadata")).put("generation", 1L);
                world.connectors.put(s.object().name(), body);
                world.statuses.put(s.object().name(), World.Status.PENDING);
            }
            case UPDATE_CONNECTOR, STOP_CONNECTOR -> {
                Map<String, Object> body = world.connectors.get(s.object().name());
                if (body == null) {
                    violations.add("step " + s.id() + " updates connector " + s.object().name() + " that does not exist");
                    return;
                }
                Map<String, Object> after = World.deepCopy(body);
                Edits.apply(after, ((StepPayload.PatchObject) s.payload()).edits());
                if (s.kind() == StepKind.STOP_CONNECTOR) {
                    if (!World.map(body.get("spec")).get("config").equals(World.map(after.get("spec")).get("config"))) {
                        violations.add("step " + s.id() + " stops " + s.object().name() + " and changes its configuration "
                                + "in one write, which Strimzi sends first [rule 8b]");
                    }
                } else {
                    checkConnectorWrite(s, after);
                }
                checkStoppedForChange(s, body, after);
                Map<String, Object> md = World.map(after.get("metadata"));
                md.put("generation", World.generation(after) + 1);
                world.connectors.put(s.object().name(), after);
                world.statuses.put(s.object().name(), World.Status.PENDING);
            }
            case WAIT_FOR_CONNECTOR_READY -> {
                StepPayload.WaitForConnector w = (StepPayload.WaitForConnector) s.payload();
                Map<String, Object> body = world.connectors.get(s.object().name());
                if (body == null) {
                    violations.add("step " + s.id() + " waits for connector " + s.object().name() + " that does not exist");
                    return;
                }
                if (world.kc == null || World.replicas(world.kc) == 0) {
                    violations.add("step " + s.id() + " waits for a connector on a cluster without workers");
                }
                if (!annotated()) {
                    violations.add("step " + s.id() + " waits for a connector the operator does not manage (no annotation)");
                }
                Object state = World.map(body.get("spec")).get("state");
                String expected = state == null ? "RUNNING" : state.toString().toUpperCase(java.util.Locale.ROOT);
                if (!expected.equals(w.expectedState())) {
                    violations.add("step " + s.id() + " waits for " + w.expectedState() + " but the connector's spec.state makes it "
                            + expected);
                }
                // a stop is not validated (and Strimzi sends no configuration Connect already stores)
                if (requires(body) && !"STOPPED".equals(w.expectedState())
                        && !(workerModes.isEmpty() || workerModes.equals(EnumSet.of(EosMode.ENABLED)))) {
                    violations.add("step " + s.id() + " would never finish: " + s.object().name() + " requires EOS, workers run "
                            + workerModes);
                }
                world.statuses.put(s.object().name(), World.Status.valueOf(w.expectedState()));
            }
            case DELETE_CONNECTOR -> {
                Map<String, Object> body = world.connectors.get(s.object().name());
                if (body == null) {
                    violations.add("step " + s.id() + " deletes connector " + s.object().name() + " that does not exist");
                    return;
                }
                Map<String, Object> labels = World.map(World.map(body.get("metadata")).get("labels"));
                if (!LiveConnector.MANAGED_BY_VALUE.equals(labels.get(Strimzi.MANAGED_BY_LABEL))
                        || !environment.equals(labels.get(Planner.ENVIRONMENT_LABEL))) {
                    violations.add("step " + s.id() + " deletes " + s.object().name() + ", which flowform did not create in "
                            + "environment " + environment);
                }
                world.connectors.remove(s.object().name());
                world.statuses.remove(s.object().name());
            }
            default -> violations.add("unknown step kind " + s.kind());
        }
    }

    private void patchCluster(Step s, List<FieldEdit> edits) {
        if (world.kc == null) {
            violations.add("step " + s.id() + " patches a KafkaConnect that does not exist");
            return;
        }
        if (Edits.apply(world.kc, edits)) {
            Map<String, Object> md = World.map(world.kc.get("metadata"));
            md.put("generation", World.generation(world.kc) + 1);
            failedGeneration = false;
        } else {
            violations.add("step " + s.id() + " " + s.kind() + " changes nothing, so no roll follows [rule 7]");
        }
        pendingRoll = true;
        clusterPatched = true;
        specPatched = true;
        world.roll = World.Roll.IN_PROGRESS;
    }

    private void checkConnectorWrite(Step s, Map<String, Object> body) {
        if (!requires(body)) {
            return;
        }
        ConnectorRole role = ConnectorRole.ofClass((String) World.map(body.get("spec")).get("class"));
        if (role != ConnectorRole.SOURCE) {
            violations.add("step " + s.id() + " gives " + s.object().name() + " (" + role + ") exactly.once.support=required "
                    + "[rule 3]");
        }
        boolean enabledEverywhere = world.kc != null && World.mode(world.kc) == EosMode.ENABLED && !pendingRoll
                && (workerModes.isEmpty() || workerModes.equals(EnumSet.of(EosMode.ENABLED)));
        if (!enabledEverywhere) {
            violations.add("step " + s.id() + " gives " + s.object().name() + " exactly.once.support=required while workers may "
                    + "run " + workerModes + (pendingRoll ? " (roll not complete)" : "") + " [rule 3]");
        }
        if (!"read_committed".equals(String.valueOf(World.map(World.map(body.get("spec")).get("config"))
                .get("source.consumer.isolation.level")))) {
            violations.add("step " + s.id() + " gives " + s.object().name() + " required without read_committed [rule 4]");
        }
    }

    /**
     * Rule 8b: a change of an exactly-once key of a source connector that runs tasks, and keeps running them, is written
     * only once the connector was seen STOPPED (KIP-875: its old task configurations are gone), unless no worker runs it,
     * Kafka cannot stop it (before 3.5), or Connect refuses its live configuration (so the operator never gets to the
     * stop).
     */
    private void checkStoppedForChange(Step s, Map<String, Object> before, Map<String, Object> after) {
        Map<String, Object> was = World.map(World.map(before.get("spec")).get("config"));
        Map<String, Object> now = World.map(World.map(after.get("spec")).get("config"));
        boolean eosKeyChanged = StopBeforeChange.KEYS.stream().anyMatch(k -> !java.util.Objects.equals(was.get(k), now.get(k)));
        boolean running = !StopBeforeChange.isStopped((String) World.map(before.get("spec")).get("state"))
                && !StopBeforeChange.isStopped((String) World.map(after.get("spec")).get("state"));
        boolean source = ConnectorRole.ofClass((String) World.map(before.get("spec")).get("class")) == ConnectorRole.SOURCE;
        Object version = world.kc == null ? null : World.map(world.kc.get("spec")).get("version");
        boolean kip875 = version == null || dev.flowform.plan.KafkaVersion.parse(version.toString())
                .map(v -> !v.isBefore(3, 5)).orElse(true);
        boolean accepted = !requires(before) || workerModes.equals(EnumSet.of(EosMode.ENABLED));
        boolean workers = world.kc != null && World.replicas(world.kc) > 0 && source && kip875 && accepted;
        if (eosKeyChanged && running && workers) {
            violations.add("step " + s.id() + " changes an exactly-once key of " + s.object().name() + " while it runs, so a "
                    + "task of the old configuration may run after apply [rule 8b]");
        }
        if (eosKeyChanged && workers && !running && world.statuses.get(s.object().name()) != World.Status.STOPPED
                && StopBeforeChange.isStopped((String) World.map(before.get("spec")).get("state"))
                && World.map(World.map(before.get("metadata")).get("annotations"))
                .containsKey(StopBeforeChange.RESUME_ANNOTATION)) {
            violations.add("step " + s.id() + " starts " + s.object().name() + " with its new configuration before it was seen "
                    + "STOPPED [rule 8b]");
        }
    }

    private boolean annotated() {
        return world.kc != null && "true".equals(String.valueOf(World.map(World.map(world.kc.get("metadata"))
                .get("annotations")).get(Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION)));
    }

    static boolean requires(Map<String, Object> connector) {
        Object v = World.map(World.map(connector.get("spec")).get("config")).get("exactly.once.support");
        return v != null && "required".equalsIgnoreCase(v.toString());
    }
}
