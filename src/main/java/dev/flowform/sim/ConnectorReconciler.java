package dev.flowform.sim;

import dev.flowform.connect.ConnectRuntime.TargetState;
import dev.flowform.connect.ConnectRuntime;
import dev.flowform.connect.ConnectorStatus;
import dev.flowform.connect.RestResult;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.sim.OperatorLoop.Task;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reconciles KafkaConnector resources as Strimzi's {@code AbstractConnectOperator} does, through the
 * {@link ConnectRuntime} port for everything Kafka Connect does.
 *
 * <p>A KafkaConnector change, and every connector of a cluster after each successful KafkaConnect reconcile,
 * is reconciled after {@link SimSettings#connectorDelay()}: only when its KafkaConnect carries
 * {@code strimzi.io/use-connector-resources: "true"}. The reconcile reads {@code GET /connectors/{name}/config} and,
 * when it differs, sends {@code PUT /connectors/{name}/config} (the {@code spec.config} with {@code connector.class}
 * and {@code tasks.max} from the spec), then the target state
 * ({@code spec.state}, or the deprecated {@code spec.pause}), then reads {@code GET /connectors/{name}/status} and
 * {@code .../topics} into {@code status}; when the configuration needed no PUT, {@code strimzi.io/restart-task} restarts
 * one task first ({@link RestartConnectorTask}). A failed call ends with {@code NotReady} and Strimzi's exception and
 * message ({@code ConnectRestException}: "PUT /connectors/... returned 400 (Bad Request): ..."). With that
 * annotation a successful KafkaConnect reconcile also deletes connectors Kafka Connect runs without a
 * KafkaConnector, and deleting a KafkaConnector deletes its connector. Runs on the operator thread.
 */
final class ConnectorReconciler {
    private static final Logger LOG = Logger.getLogger(ConnectorReconciler.class.getName());

    /** Tells whether a connector reconcile must wait for its cluster's reconcile. */
    @FunctionalInterface
    interface Lock {
        /** @return true when deferred until the KafkaConnect reconcile of {@code ns/cluster} ends */
        boolean defer(String ns, String cluster, String connector);
    }

    /** Connector and task states that only an outside event changes. */
    private static final Set<String> SETTLED_STATES = Set.of("RUNNING", "PAUSED", "STOPPED", "FAILED");
    /** How soon a moving connector status is read again. */
    private static final java.time.Duration STATUS_REFRESH = java.time.Duration.ofSeconds(1);
    /**
     * When a connector whose REST call failed for a passing reason (no worker answered, 409 during a rebalance, a 5xx)
     * is reconciled again: Strimzi's periodic reconciliation, {@code STRIMZI_FULL_RECONCILIATION_INTERVAL_MS}, 120 s by
     * default (Strimzi "Configuring the Cluster Operator"). Without it a connector created while the workers were still
     * forming their group would stay NotReady until its spec changed, which a real operator never does.
     */
    static final java.time.Duration PERIODIC_RECONCILE = java.time.Duration.ofSeconds(120);
    /** How soon a status still moving after the quick refreshes is read again. */
    private static final java.time.Duration SLOW_STATUS_REFRESH = java.time.Duration.ofSeconds(10);
    /** Quick refreshes, per reconcile (two minutes at one a second); then one per {@link #SLOW_STATUS_REFRESH}. */
    private static final int MAX_REFRESHES = 120;

    private final SimContext ctx;
    private final Lock lock;
    private final Map<String, Task> timers = new HashMap<>();
    private final AtomicLong reconciles = new AtomicLong();

    ConnectorReconciler(SimContext ctx, Lock lock) {
        this.ctx = ctx;
        this.lock = lock;
    }

    /** @return reconciles that wrote or checked a status; thread-safe */
    long reconcileCount() {
        return reconciles.get();
    }

    /** An informer delivered a KafkaConnector ({@code old} is null for an add). */
    void onEvent(GenericKubernetesResource old, GenericKubernetesResource c) {
        if (ctx.faults().operatorPaused()) {
            return;
        }
        if (ConnectReconciler.changed(old, c) || !SimContext.settled(c)) {
            schedule(c.getMetadata().getNamespace(), c.getMetadata().getName());
        }
    }

    /** A KafkaConnector was deleted: with connector resources enabled its connector is deleted from Kafka Connect. */
    void onDeleted(GenericKubernetesResource c) {
        String cluster = SimContext.label(c, Strimzi.CLUSTER_LABEL);
        Task t = timers.remove(SimContext.key(c));
        if (t != null) {
            t.cancel();
        }
        if (cluster == null || ctx.faults().operatorPaused()) {
            return;
        }
        String ns = c.getMetadata().getNamespace();
        GenericKubernetesResource kc = ctx.kc().inNamespace(ns).withName(cluster).get();
        if (kc != null && SimContext.useResources(kc)) {
            ctx.runtime().deleteConnector(ns + "/" + cluster, c.getMetadata().getName());
        }
    }

    /** Schedules a reconcile of every KafkaConnector labelled for {@code ns/cluster}. */
    void scheduleAllOf(String ns, String cluster) {
        for (GenericKubernetesResource c : ctx.kctr().inNamespace(ns).withLabel(Strimzi.CLUSTER_LABEL, cluster).list().getItems()) {
            schedule(ns, c.getMetadata().getName());
        }
    }

    /** Schedules a reconcile of every KafkaConnector whose status does not reflect its generation. */
    void scheduleUnsettled() {
        for (GenericKubernetesResource c : ctx.kctr().inAnyNamespace().list().getItems()) {
            if (!SimContext.settled(c)) {
                schedule(c.getMetadata().getNamespace(), c.getMetadata().getName());
            }
        }
    }

    /** Schedules a reconcile of {@code ns/name} after the connector delay, unless one is scheduled. */
    void schedule(String ns, String name) {
        String k = ns + "/" + name;
        Task retry = timers.remove(k + "#periodic");
        if (retry != null) {
            retry.cancel();
        }
        if (timers.containsKey(k)) {
            return;
        }
        timers.put(k, ctx.loop().schedule(ctx.settings().connectorDelay(), () -> {
            timers.remove(k);
            reconcile(ns, name);
        }));
    }

    /** Cancels every scheduled reconcile. */
    void cancelAll() {
        timers.values().forEach(Task::cancel);
        timers.clear();
    }

    /**
     * Deletes the connectors Kafka Connect runs for {@code ns/cluster} that have no KafkaConnector
     * ({@code GET /connectors}, then {@code DELETE} each), recording them in the operator's memory.
     */
    void deleteUnmanaged(String ns, String cluster) {
        String key = ns + "/" + cluster;
        Set<String> running = ctx.runtime().connectors(key);
        if (running.isEmpty()) {
            return;
        }
        Set<String> desired = new HashSet<>();
        for (GenericKubernetesResource c : ctx.kctr().inNamespace(ns).withLabel(Strimzi.CLUSTER_LABEL, cluster).list().getItems()) {
            desired.add(c.getMetadata().getName());
        }
        for (String name : new TreeSet<>(running)) {
            if (!desired.contains(name) && ctx.runtime().deleteConnector(key, name).ok()) {
                ctx.memory().deletedRuntimeConnectors.add(key + "/" + name);
                LOG.fine(() -> "deleted connector " + name + " from Kafka Connect " + key + ": it has no KafkaConnector and "
                        + Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION + " is true");
            }
        }
    }

    private void reconcile(String ns, String name) {
        if (ctx.faults().operatorPaused() || ctx.loop().closed()) {
            return;
        }
        try {
            GenericKubernetesResource c = ctx.kctr().inNamespace(ns).withName(name).get();
            if (c != null) {
                reconcile(c);
            }
        } catch (KubernetesClientException e) {
            LOG.log(Level.FINE, "reconcile of KafkaConnector " + ns + "/" + name + " failed, retrying", e);
            if (!ctx.loop().closed()) {
                timers.putIfAbsent(ns + "/" + name, ctx.loop().schedule(
                        SimContext.max(ctx.settings().connectorDelay(), SimContext.MIN_RETRY), () -> {
                            timers.remove(ns + "/" + name);
                            reconcile(ns, name);
                        }));
            }
        }
    }

    private void reconcile(GenericKubernetesResource c) {
        String ns = c.getMetadata().getNamespace();
        String name = c.getMetadata().getName();
        long g = SimContext.generation(c);
        if (SimContext.paused(c)) {
            reconciles.incrementAndGet();
            ctx.writeConnectorStatus(c, StatusDocuments.paused(c, ctx.now()));
            return;
        }
        GenericKubernetesResource kc = connectCluster(c, g);
        if (kc == null) {
            return;
        }
        String cluster = kc.getMetadata().getName();
        if (lock.defer(ns, cluster, name) || SimContext.paused(kc)) {
            return;
        }
        reconciles.incrementAndGet();
        if (!SimContext.useResources(kc)) {
            fail(c, g, "NoSuchResourceException", "KafkaConnect " + cluster + " is not configured with annotation "
                    + Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION);
            return;
        }
        Map<String, Object> spec = JsonMaps.map(c.getAdditionalProperties().get("spec"));
        if (spec == null) {
            fail(c, g, "InvalidResourceException", "spec property is required");
            return;
        }
        if (configure(c, g, cluster, spec)) {
            markReady(c, g, ns + "/" + cluster, spec);
        }
    }

    /**
     * Strimzi's KafkaConnector checks before any call to Connect: the {@code strimzi.io/cluster} label names a
     * KafkaConnect that exists (else the connector fails with the operator's own exception and message).
     *
     * @return the KafkaConnect, or null after writing the failure
     */
    private GenericKubernetesResource connectCluster(GenericKubernetesResource c, long g) {
        String ns = c.getMetadata().getNamespace();
        String cluster = SimContext.label(c, Strimzi.CLUSTER_LABEL);
        if (cluster == null) {
            reconciles.incrementAndGet();
            fail(c, g, "InvalidResourceException",
                    "Resource lacks label '" + Strimzi.CLUSTER_LABEL + "': No connect cluster in which to create this connector.");
            return null;
        }
        GenericKubernetesResource kc = ctx.kc().inNamespace(ns).withName(cluster).get();
        if (kc == null) {
            reconciles.incrementAndGet();
            fail(c, g, "NoSuchResourceException", "KafkaConnect resource '" + cluster + "' identified by label '"
                    + Strimzi.CLUSTER_LABEL + "' does not exist in namespace " + ns + ".");
        }
        return kc;
    }

    /**
     * Sends the connector's config and target state to Connect's REST API, as Strimzi's
     * {@code AbstractConnectOperator} does.
     *
     * @return true when both calls succeeded; false after writing the failure
     */
    private boolean configure(GenericKubernetesResource c, long g, String cluster, Map<String, Object> spec) {
        String name = c.getMetadata().getName();
        String connectCluster = c.getMetadata().getNamespace() + "/" + cluster;
        Integer tasksMax = tasksMax(spec);
        Map<String, String> config = new LinkedHashMap<>(SimContext.stringMap(JsonMaps.map(spec.get("config"))));
        config.put("connector.class", JsonMaps.str(spec, "class"));
        if (tasksMax != null) {
            config.put("tasks.max", String.valueOf(tasksMax));
        }
        boolean held = ctx.runtime().holdsConfig(connectCluster, name, config);
        if (!held) {
            RestResult put = ctx.runtime().putConnectorConfig(connectCluster, name, config);
            if (!put.ok()) {
                failCall(c, g, cluster, "PUT /connectors/" + name + "/config", put);
                return false;
            }
        }
        TargetState state = targetState(spec);
        RestResult moved = ctx.runtime().setTargetState(connectCluster, name, state);
        if (!moved.ok()) {
            failCall(c, g, cluster, "PUT /connectors/" + name + "/" + switch (state) {
                case RUNNING -> "resume";
                case PAUSED -> "pause";
                case STOPPED -> "stop";
            }, moved);
            return false;
        }
        if (held) {
            RestartConnectorTask.forConnector(ctx, c, connectCluster);
        }
        return true;
    }

    /** Writes the Ready status with Connect's connector status, and keeps refreshing it until it settles. */
    private void markReady(GenericKubernetesResource c, long g, String connectCluster, Map<String, Object> spec) {
        String ns = c.getMetadata().getNamespace();
        String name = c.getMetadata().getName();
        Integer tasksMax = tasksMax(spec);
        Instant readyAt = ctx.loop().clock().instant();
        ConnectorStatus now = ctx.runtime().status(connectCluster, name).orElse(null);
        ctx.writeConnectorStatus(c, StatusDocuments.connectorReady(c, g, tasksMax == null ? 1 : tasksMax,
                ctx.runtime().topics(connectCluster, name), now, ctx.now()));
        ctx.loop().reportReady(StrimziCrds.KAFKA_CONNECTOR, ns, name, g, readyAt);
        if (!settledAfterChange(now, 1, targetState(spec))) {
            scheduleRefresh(ns, name, g, 1);
        }
    }

    private static Integer tasksMax(Map<String, Object> spec) {
        return spec.get("tasksMax") instanceof Number n ? n.intValue() : null;
    }

    /**
     * Tells whether a connector status will not change without an outside event: the connector and every task
     * {@code RUNNING}, {@code PAUSED}, {@code STOPPED} or {@code FAILED}. Right after a PUT, real Kafka Connect
     * reports the connector {@code UNASSIGNED}, or not at all, for a second or two while it assigns it.
     */
    static boolean settled(ConnectorStatus status) {
        if (status == null || !SETTLED_STATES.contains(status.state())) {
            return false;
        }
        return status.tasks().stream().allMatch(t -> SETTLED_STATES.contains(t.state()));
    }

    /**
     * Tells whether a status read after a connector change needs no quick re-read: {@link #settled}, and during the
     * quick refreshes no FAILED task, and a task when the connector is RUNNING. A connector reports RUNNING before its
     * tasks exist: it starts, then generates its task configurations, which the group assigns after a rebalance (Kafka
     * Connect's {@code WorkerConnector} and {@code DistributedHerder.reconfigureConnector}); on a loaded machine that takes
     * many seconds. And Connect restarts every task of a reconfigured connector, FAILED ones included, after the
     * rebalance the new task configurations cause, so a FAILED task read right after the PUT may be from before it.
     * And the connector in the target state the reconcile sent, a stopped one without a running task: Kafka Connect
     * acts on {@code PUT .../stop} or {@code .../resume} a moment after answering it.
     *
     * @param status  Connect's connector status, or null when it reported none
     * @param attempt the number of the next refresh, from 1
     * @param target  the target state the reconcile sent, or null for none
     */
    static boolean settledAfterChange(ConnectorStatus status, int attempt, TargetState target) {
        if (status != null && target != null && !"FAILED".equals(status.state())
                && (!target.name().equals(status.state()) || (target == TargetState.STOPPED
                && status.tasks().stream().anyMatch(t -> !Set.of("UNASSIGNED", "FAILED").contains(t.state()))))) {
            return false; // Connect has not acted on the target state yet (a stop or resume is asynchronous)
        }
        return settledAfterChange(status, attempt);
    }

    /**
     * Like {@link #settledAfterChange(ConnectorStatus, int, TargetState)} without a target state to reach.
     *
     * @param status  Connect's connector status, or null when it reported none
     * @param attempt the number of the next refresh, from 1
     */
    static boolean settledAfterChange(ConnectorStatus status, int attempt) {
        return settled(status) && (attempt > MAX_REFRESHES
                || !("RUNNING".equals(status.state()) && status.tasks().isEmpty())
                && status.tasks().stream().noneMatch(t -> "FAILED".equals(t.state())));
    }

    /**
     * Reads a connector's status again after {@link #STATUS_REFRESH} while it is not {@link #settled}: Strimzi
     * refreshes {@code status.connectorStatus} on every periodic reconcile (every 120 s by default); this does it
     * sooner while the status is still moving (never for the simulated runtime, which settles at once), then every
     * {@link #SLOW_STATUS_REFRESH} until it settles.
     */
    private void scheduleRefresh(String ns, String name, long generation, int attempt) {
        // one refresh chain per generation: a chain of the generation before, still pending, ends on its own when it
        // sees the newer generation, and must not keep this one from starting
        String k = ns + "/" + name + "#status@" + generation;
        if (timers.containsKey(k) || ctx.loop().closed()) {
            return;
        }
        // past the quick refreshes the status is still read, less often, until it settles (Strimzi reads it at each
        // periodic reconcile; a Connect group can take minutes to assign a connector after workers come and go)
        Runnable again = () -> {
            timers.remove(k);
            refresh(ns, name, generation, attempt);
        };
        timers.put(k, attempt > MAX_REFRESHES ? ctx.loop().background(SLOW_STATUS_REFRESH, again)
                : ctx.loop().schedule(STATUS_REFRESH, again));
    }

    private void refresh(String ns, String name, long generation, int attempt) {
        if (ctx.faults().operatorPaused() || ctx.loop().closed()) {
            return;
        }
        try {
            GenericKubernetesResource c = ctx.kctr().inNamespace(ns).withName(name).get();
            String cluster = c == null ? null : SimContext.label(c, Strimzi.CLUSTER_LABEL);
            if (c == null || cluster == null || SimContext.generation(c) != generation || !SimContext.settled(c)) {
                return; // deleted, changed since, or reconciled again: that reconcile owns the status now
            }
            Map<String, Object> spec = JsonMaps.map(c.getAdditionalProperties().get("spec"));
            Integer tasksMax = spec != null && spec.get("tasksMax") instanceof Number n ? n.intValue() : null;
            String connectCluster = ns + "/" + cluster;
            ConnectorStatus now = ctx.runtime().status(connectCluster, name).orElse(null);
            ctx.writeConnectorStatus(c, StatusDocuments.connectorReady(c, generation, tasksMax == null ? 1 : tasksMax,
                    ctx.runtime().topics(connectCluster, name), now, ctx.now()));
            if (!settledAfterChange(now, attempt + 1, spec == null ? null : targetState(spec))) {
                scheduleRefresh(ns, name, generation, attempt + 1);
            }
        } catch (KubernetesClientException e) {
            LOG.log(Level.FINE, "status refresh of KafkaConnector " + ns + "/" + name + " failed, retrying", e);
            scheduleRefresh(ns, name, generation, attempt + 1);
        }
    }

    /**
     * Writes the status of a failed REST call: no answer (status 0, whatever the runtime's message) is what
     * Strimzi's HTTP client reports when the {@code <name>-connect-api} service has no endpoint, a
     * {@code ConnectException} "Connection refused" naming the service;
     * an error status is its {@code ConnectRestException} with the status line and Kafka Connect's message, and for
     * a rejected configuration (400) the connector status the worker reports.
     */
    private void failCall(GenericKubernetesResource c, long g, String cluster, String call, RestResult result) {
        String ns = c.getMetadata().getNamespace();
        if (result.status() == 0) {
            LOG.fine(() -> "no worker of " + ns + "/" + cluster + " answered " + call + ": " + result.message());
            fail(c, g, "ConnectException", "Connection refused: " + Strimzi.serviceName(cluster) + "." + ns + ".svc/"
                    + Strimzi.CONNECT_REST_PORT);
            reconcileAgainLater(ns, c.getMetadata().getName());
            return;
        }
        Map<String, Object> status = StatusDocuments.connectorError(c, g, "ConnectRestException", call + " returned "
                + result.status() + " (" + reasonPhrase(result.status()) + "): " + result.message(), ctx.now());
        if (result.status() == 400) {
            ctx.runtime().status(ns + "/" + cluster, c.getMetadata().getName())
                    .ifPresent(s -> status.put("connectorStatus", StatusDocuments.connectorStatus(s)));
        }
        ctx.writeConnectorStatus(c, status);
        if (result.status() == 409 || result.status() >= 500) {
            reconcileAgainLater(ns, c.getMetadata().getName());
        }
    }

    /** Reconciles {@code ns/name} again after {@link #PERIODIC_RECONCILE}, unless a reconcile comes sooner. */
    private void reconcileAgainLater(String ns, String name) {
        String k = ns + "/" + name + "#periodic";
        if (ctx.loop().closed() || timers.containsKey(k)) {
            return;
        }
        timers.put(k, ctx.loop().background(PERIODIC_RECONCILE, () -> {
            timers.remove(k);
            reconcile(ns, name);
        }));
    }

    private void fail(GenericKubernetesResource c, long g, String reason, String message) {
        ctx.writeConnectorStatus(c, StatusDocuments.connectorError(c, g, reason, message, ctx.now()));
    }

    /**
     * @return the target state of {@code spec.state} (a KafkaConnector's spec or a KafkaMirrorMaker2 connector entry), or
     *         of the deprecated {@code spec.pause} when it is absent
     */
    static TargetState targetState(Map<String, Object> spec) {
        Object state = spec.get("state");
        if (state != null) {
            return switch (state.toString().toLowerCase(Locale.ROOT)) {
                case "paused" -> TargetState.PAUSED;
                case "stopped" -> TargetState.STOPPED;
                default -> TargetState.RUNNING;
            };
        }
        return Boolean.parseBoolean(String.valueOf(spec.get("pause"))) ? TargetState.PAUSED : TargetState.RUNNING;
    }

    /** @return the HTTP reason phrase of the statuses the Connect REST API answers with */
    private static String reasonPhrase(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 409 -> "Conflict";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> "HTTP " + status;
        };
    }
}
