package dev.flowform.plan.cluster;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Severity;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.ManageMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.TaskStatus;
import dev.flowform.model.Conditions;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.model.strimzi.KafkaConnectorManifest;
import dev.flowform.plan.Action;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Ownership;
import dev.flowform.plan.Planner;
import dev.flowform.plan.Rule;
import dev.flowform.plan.rules.ConnectorCheck;
import dev.flowform.plan.rules.ConnectorRules;
import dev.flowform.plan.rules.Finding;
import dev.flowform.plan.rules.StopBeforeChange;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The connectors of one cluster's flows against the live ones: the work for each, the findings that leave one out
 * (a {@link ConnectorRules} refusal, nothing to adopt, another cluster's), and the FAILED tasks to restart
 * ({@link TaskRestart}). A live connector no flow produces is deleted only when this environment created it. Pure.
 *
 * @param work     the work, in flow order, deletions last
 * @param findings diagnostics about the connectors, in the same order (the connector guard reports them)
 * @param restarts the FAILED tasks to restart, one per connector, in flow order
 */
record ConnectorFacts(List<ConnectorWork> work, List<Diagnostic> findings, List<TaskRestart> restarts) {

    /** Message of Strimzi's {@code NotReady} condition when only tasks failed ({@code AbstractConnectOperator}). */
    private static final String TASKS_FAILED = "The following tasks have failed";

    ConnectorFacts {
        work = List.copyOf(work);
        findings = List.copyOf(findings);
        restarts = List.copyOf(restarts);
    }

    /**
     * @param live        the KafkaConnect, or null when it does not exist (then nothing is deleted)
     * @param restartable true when the operator acts on the cluster's connectors and the plan restarts no worker:
     *                    then a FAILED task of a connector the plan does not change gets a {@link TaskRestart}
     * @return the connectors' work and findings
     */
    static ConnectorFacts of(PlanScope scope, DesiredConnectCluster dc, List<DesiredFlow> flows, LiveConnectCluster live,
                             boolean restartable) {
        List<ConnectorWork> work = new ArrayList<>();
        List<Diagnostic> findings = new ArrayList<>();
        List<TaskRestart> restarts = new ArrayList<>();
        Set<String> wanted = new HashSet<>();
        for (DesiredFlow flow : flows) {
            for (DesiredConnector d : flow.connectors()) {
                wanted.add(d.name());
                desired(scope, dc, flow, d, findings, restartable ? restarts : null).ifPresent(work::add);
            }
        }
        if (live != null) {
            for (LiveConnector l : scope.live().connectorsOf(live.namespace(), live.name())) {
                if (!wanted.contains(l.name()) && deletable(scope, l)) {
                    work.add(new ConnectorWork(Action.DELETE, "kafka_connector." + l.name(), l.ref(), null, null,
                            new SpecDiff(List.of(), List.of()), null, false));
                }
            }
        }
        return new ConnectorFacts(work, findings, restarts);
    }

    /**
     * Removing a flow deletes only what flowform created in this environment, and never what another lineage marked.
     *
     * @return true when this plan may delete it
     */
    static boolean deletable(PlanScope scope, LiveConnector l) {
        return l.managedByFlowform() && scope.environment().equals(l.labels().get(Planner.ENVIRONMENT_LABEL))
                && !Ownership.of(l.labels(), l.annotations()).foreign(scope.environment(), scope.lineage());
    }

    /**
     * @param restarts where a {@link TaskRestart} of the connector goes, or null when the cluster allows none
     * @return the work for one desired connector, empty when it is left out or nothing differs
     */
    private static Optional<ConnectorWork> desired(PlanScope scope, DesiredConnectCluster dc, DesiredFlow flow,
                                                   DesiredConnector d, List<Diagnostic> findings,
                                                   List<TaskRestart> restarts) {
        boolean allowed = true;
        for (Finding f : ConnectorRules.desiredConnector(d, dc.name(), dc.eos())) {
            findings.add(f.cited(flow.range(), d.address()));
            allowed &= !f.isError();
        }
        if (!allowed) {
            return Optional.empty();
        }
        Optional<LiveConnector> lc = scope.live().connector(d.namespace(), d.name());
        if (lc.isEmpty()) {
            return created(scope, dc, flow, d, findings);
        }
        LiveConnector l = lc.get();
        if (!dc.name().equals(l.connectCluster())) {
            findings.add(Rule.CONFIGURATION.diagnostic(Severity.ERROR, "Connector belongs to another Connect cluster",
                    "KafkaConnector " + d.namespace() + "/" + d.name() + " is labelled strimzi.io/cluster="
                            + l.connectCluster() + ", but " + flow.address() + " runs on \"" + dc.name()
                            + "\". Moving a connector between clusters is not supported; rename the flow.",
                    flow.range(), d.address()));
            return Optional.empty();
        }
        SpecDiff diff = SpecDiff.connector(d, l);
        String mark = l.annotations().get(StopBeforeChange.RESUME_ANNOTATION);
        boolean stops = StopBeforeChange.lane(diff.edits(), l.state(), mark, StopBeforeChange.RUNNING, d.role()
                == dev.flowform.model.ConnectorRole.SOURCE) != StopBeforeChange.Lane.PLAIN;
        Optional<TaskRestart> restart = restarts == null || !diff.isEmpty() || mark != null ? Optional.empty()
                : restart(d.address(), l);
        restart.ifPresent(r -> restarts.add(r));
        failed(d.address(), l, !diff.isEmpty(), stops, restart.isPresent()).ifPresent(findings::add);
        if (diff.isEmpty() && mark == null) {
            return Optional.empty();
        }
        Map<String, String> after = new TreeMap<>(l.config());
        for (FieldEdit e : diff.edits()) {
            if (e.path().size() == 3 && e.path().get(1).equals("config")) {
                if (e.remove()) {
                    after.remove(e.key());
                } else {
                    after.put(e.key(), String.valueOf(e.value()));
                }
            }
        }
        // a connector flowform stopped for a change returns to the state its mark records, unless one is declared
        String state = d.state() != null ? d.state() : mark != null ? mark
                : l.state() != null ? l.state() : StopBeforeChange.RUNNING;
        return Optional.of(new ConnectorWork(Action.UPDATE, d.address(), l.ref(), d, null, diff,
                StopBeforeChange.runtimeState(state), ConnectorRules.isRequired(after.get(ConnectorRules.EXACTLY_ONCE_SUPPORT)),
                l.state(), mark, state, ConnectorRules.isRequired(l.config().get(ConnectorRules.EXACTLY_ONCE_SUPPORT)),
                ConnectorCheck.evaluate(l, l.generation(), "STOPPED").isComplete()));
    }

    /** @return the creation of a connector that does not exist; empty (with an error) when it was to be adopted */
    private static Optional<ConnectorWork> created(PlanScope scope, DesiredConnectCluster dc, DesiredFlow flow,
                                                   DesiredConnector d, List<Diagnostic> findings) {
        if (d.manage() == ManageMode.ADOPT) {
            findings.add(Rule.CONFIGURATION.diagnostic(Severity.ERROR, "Adopted connector not found",
                    flow.address() + " has manage = \"adopt\", but KafkaConnector " + d.namespace() + "/"
                            + d.name() + " does not exist. Check the flow name, or use manage = \"own\" "
                            + "to let flowform create it.", flow.range(), d.address()));
            return Optional.empty();
        }
        Map<String, Object> manifest = new KafkaConnectorManifest(scope.live().api().kafkaApiVersion(), d.namespace(),
                d.name(), dc.name(), OwnershipMarks.labels(scope), OwnershipMarks.annotations(scope), d.className(),
                d.tasksMax(), d.state(), d.config()).toMap();
        return Optional.of(new ConnectorWork(Action.CREATE, d.address(),
                new ObjectRef((String) manifest.get("apiVersion"), KafkaConnectorManifest.KIND, d.namespace(), d.name()),
                d, manifest, new SpecDiff(List.of(), List.of()), StopBeforeChange.runtimeState(d.state()),
                ConnectorRules.isRequired(d.config().get(ConnectorRules.EXACTLY_ONCE_SUPPORT))));
    }

    /**
     * @return the restart of the connector's first FAILED task, when the connector runs, its status is of its current
     *         generation and its last reconcile did not fail for another reason than failed tasks; else empty
     */
    private static Optional<TaskRestart> restart(String address, LiveConnector l) {
        Optional<TaskStatus> failed = l.tasks().stream().filter(t -> "FAILED".equals(t.state())).findFirst();
        boolean current = l.observedGeneration() != null && l.observedGeneration() == l.generation();
        boolean reconcileFailed = Conditions.trueCondition(l.conditions(), "NotReady")
                .filter(c -> c.message() == null || !c.message().startsWith(TASKS_FAILED)).isPresent();
        if (failed.isEmpty() || !current || reconcileFailed || l.connectorState() == null
                || "FAILED".equals(l.connectorState())) {
            return Optional.empty();
        }
        String id = String.valueOf(failed.get().id());
        return Optional.of(new TaskRestart(address, l.ref(), Strimzi.RESTART_TASK_ANNOTATION, id, l.name() + ":" + id));
    }

    /** @return the warning about a FAILED connector or task (rule {@link Rule#CONNECTOR_FAILED}), if any */
    private static Optional<Diagnostic> failed(String address, LiveConnector l, boolean updated, boolean stops,
                                               boolean restarted) {
        String trace = null;
        TaskStatus task = null;
        if ("FAILED".equals(l.connectorState())) {
            trace = "connector FAILED: " + ConnectorCheck.head(l.connectorTrace());
        } else {
            task = l.tasks().stream().filter(t -> "FAILED".equals(t.state())).findFirst().orElse(null);
            trace = task == null ? null : "task " + task.id() + " FAILED: " + ConnectorCheck.head(task.trace());
        }
        if (trace == null) {
            return Optional.empty();
        }
        String restart = task == null ? Strimzi.RESTART_ANNOTATION + "=true"
                : Strimzi.RESTART_TASK_ANNOTATION + "=" + task.id();
        return Optional.of(Rule.CONNECTOR_FAILED.warning("Connector " + l.name() + " has failed",
                "KafkaConnector " + l.namespace() + "/" + l.name() + " reports " + trace + (trace.endsWith(".") ? " " : ". ")
                        + (updated ? "This plan changes its configuration, which makes Kafka Connect restart it."
                                : restarted ? "This plan does not change it, so it asks the operator to restart the task ("
                                        + restart + "); check the task's trace if it fails again."
                                : "This plan does not change it. If it is still FAILED afterwards, restart it (kubectl "
                                        + "annotate kafkaconnector -n " + l.namespace() + " " + l.name() + " " + restart
                                        + ").")
                        + (stops && "FAILED".equals(l.connectorState()) ? " The plan stops it first; Strimzi before 1.1.0 "
                                + "does not stop a FAILED connector, whose tasks may still run: on such an operator, restart "
                                + "it (strimzi.io/restart=true) before apply." : ""),
                address));
    }

}
