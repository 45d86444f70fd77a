package dev.flowform.sim;

import dev.flowform.connect.ConnectorStatus;
import dev.flowform.connect.RestResult;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Strimzi's automatic restart of the FAILED tasks of a KafkaMirrorMaker2's connectors ({@code autoRestart}, Strimzi
 * "AutoRestart schema reference"): a FAILED task is restarted once {@code n * n + n} minutes (at most 60) have passed
 * since the n-th automatic restart, up to {@code maxRestarts}; the count lives in {@code status.autoRestartStatuses[]}.
 * A FAILED connector is not restarted. Used on the operator thread.
 */
final class AutoRestart {
    private static final Logger LOG = Logger.getLogger(AutoRestart.class.getName());
    private static final long MAX_BACKOFF_MINUTES = 60;

    /** Restarts so far and the last one, by {@code namespace/name/connector}. */
    private final Map<String, Restarts> restarts = new HashMap<>();

    private record Restarts(int count, Instant last, String timestamp) {
    }

    /**
     * What {@link #apply} did.
     *
     * @param statuses  the entries of {@code status.autoRestartStatuses} ({@code count}, {@code connectorName},
     *                  {@code lastRestartTimestamp}); empty when no connector is counting automatic restarts
     * @param restarted true when a task was restarted just now (its status is moving again)
     */
    record Result(List<Map<String, Object>> statuses, boolean restarted) {
    }

    /**
     * Restarts the FAILED tasks of {@code mm2}'s connectors that enable {@code autoRestart} when the back-off allows,
     * and forgets the count of a connector that ran long enough without one; {@code statuses} by connector name.
     */
    Result apply(SimContext ctx, GenericKubernetesResource mm2, Map<String, ConnectorStatus> statuses) {
        Map<String, Map<String, Object>> specs = specs(mm2);
        Instant now = ctx.loop().clock().instant();
        List<Map<String, Object>> out = new ArrayList<>();
        boolean restarted = false;
        for (Map.Entry<String, ConnectorStatus> e : statuses.entrySet()) {
            String key = SimContext.key(mm2) + "/" + e.getKey();
            Map<String, Object> spec = specs.get(e.getKey());
            Restarts done = restarts.get(key);
            boolean failed = e.getValue().tasks().stream().anyMatch(t -> "FAILED".equals(t.state()));
            if (spec == null) {
                restarts.remove(key);
                continue;
            }
            int count = done == null ? 0 : done.count();
            boolean due = done == null || !now.isBefore(done.last().plus(backoff(count)));
            Object max = spec.get("maxRestarts");
            if (failed && due && !(max instanceof Number n && count >= n.intValue())) {
                restart(ctx, SimContext.key(mm2), e.getValue());
                done = new Restarts(count + 1, now, ctx.now());
                restarts.put(key, done);
                restarted = true;
            } else if (!failed && done != null && due) {
                restarts.remove(key);
                done = null;
            }
            if (done != null) {
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("count", done.count());
                s.put("connectorName", e.getKey());
                s.put("lastRestartTimestamp", done.timestamp());
                out.add(s);
            }
        }
        return new Result(out, restarted);
    }

    /**
     * @param mm2 a KafkaMirrorMaker2
     * @return true when one of its connectors enables {@code autoRestart}
     */
    static boolean enabledIn(GenericKubernetesResource mm2) {
        return !specs(mm2).isEmpty();
    }

    /** @return Strimzi's back-off before the next automatic restart after {@code count} of them */
    static Duration backoff(int count) {
        return Duration.ofMinutes(Math.min((long) count * count + count, MAX_BACKOFF_MINUTES));
    }

    private static void restart(SimContext ctx, String cluster, ConnectorStatus s) {
        for (ConnectorStatus.TaskStatus t : s.tasks()) {
            if ("FAILED".equals(t.state())) {
                RestResult r = ctx.runtime().restartTask(cluster, s.name(), t.id());
                LOG.fine(() -> "auto-restart of " + s.name() + " task " + t.id() + ": " + r.status() + " " + r.message());
            }
        }
    }

    /** @return connector name to its {@code autoRestart} object, for the connectors of {@code mm2} that enable it */
    private static Map<String, Map<String, Object>> specs(GenericKubernetesResource mm2) {
        Map<String, Object> spec = SimContext.spec(mm2);
        Map<String, Object> target = JsonMaps.map(spec.get("target"));
        String targetAlias = target != null ? JsonMaps.str(target, "alias") : JsonMaps.str(spec, "connectCluster");
        Map<String, Map<String, Object>> out = new HashMap<>();
        for (Object o : JsonMaps.list(spec.get("mirrors"))) {
            Map<String, Object> m = JsonMaps.map(o);
            Map<String, Object> source = m == null ? null : JsonMaps.map(m.get("source"));
            String sourceAlias = source != null ? JsonMaps.str(source, "alias") : m == null ? null
                    : JsonMaps.str(m, "sourceCluster");
            if (sourceAlias == null) {
                continue;
            }
            enabled(m.get("sourceConnector")).ifPresent(a ->
                    out.put(MirrorMaker2Names.sourceConnector(sourceAlias, targetAlias), a));
            enabled(m.get("checkpointConnector")).ifPresent(a ->
                    out.put(MirrorMaker2Names.checkpointConnector(sourceAlias, targetAlias), a));
        }
        return out;
    }

    private static java.util.Optional<Map<String, Object>> enabled(Object connector) {
        Map<String, Object> c = JsonMaps.map(connector);
        Map<String, Object> a = c == null ? null : JsonMaps.map(c.get("autoRestart"));
        return a != null && Boolean.TRUE.equals(a.get("enabled")) ? java.util.Optional.of(a) : java.util.Optional.empty();
    }
}
