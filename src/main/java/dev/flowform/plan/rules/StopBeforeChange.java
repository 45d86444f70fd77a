package dev.flowform.plan.rules;

import dev.flowform.model.ConnectorRole;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.KafkaVersion;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * When a connector change is applied as "stop, reconfigure, start" (docs/domain-rules.md, 8b), so that no task of the
 * old configuration runs once apply reports the change done: a stopped connector has no tasks (KIP-875), and Strimzi
 * sends a changed configuration before the state, so the stop is a write of its own. The state to return to is
 * recorded on the object ({@link #RESUME_ANNOTATION}), so an unfinished apply continues from the cluster. Pure.
 */
public final class StopBeforeChange {

    /** Annotation flowform writes with the stop: the {@code spec.state} to write when the connector starts again. */
    public static final String RESUME_ANNOTATION = "flowform.dev/resume-state";
    /** {@code spec.state} of a stopped connector (Strimzi {@code ConnectorState.STOPPED}). */
    public static final String STOPPED = "stopped";
    /** {@code spec.state} of a running connector, Strimzi's default. */
    public static final String RUNNING = "running";

    /** The connector keys whose old value no task may run with after the change. */
    public static final Set<String> KEYS = Set.of(ConnectorRules.EXACTLY_ONCE_SUPPORT, ConnectorRules.SOURCE_ISOLATION_LEVEL,
            ConnectorRules.TRANSACTION_BOUNDARY);

    private StopBeforeChange() {
    }

    /** How one connector change is applied. */
    public enum Lane {
        /** One write (a connector that runs no task of the old configuration afterwards in any case). */
        PLAIN,
        /** Stop, wait until stopped, write the configuration with the state to return to, wait. */
        STOP_FIRST,
        /** Stopped by flowform already (an apply that did not finish): confirm it is stopped, then as STOP_FIRST. */
        ALREADY_STOPPED
    }

    /**
     * @param edits     the connector's edits, on paths ending {@code config.<key>}
     * @param liveState the live {@code spec.state} ({@code running}, {@code paused}, {@code stopped}); null is running
     * @param mark      the live {@link #RESUME_ANNOTATION}, or null
     * @param target    the {@code spec.state} the connector ends in
     * @param canStop   what {@link #canStop} says of the connector
     * @return how to apply the change: {@link Lane#ALREADY_STOPPED} when marked; {@link Lane#STOP_FIRST} when the edits
     *         change a key of {@link #KEYS}, the connector is not stopped now and is to run or pause afterwards, and it
     *         can be stopped; else {@link Lane#PLAIN}
     */
    public static Lane lane(List<FieldEdit> edits, String liveState, String mark, String target, boolean canStop) {
        if (mark != null) {
            return Lane.ALREADY_STOPPED;
        }
        boolean touches = edits.stream().anyMatch(e -> e.path().size() >= 2 && "config".equals(e.path().get(e.path().size() - 2))
                && KEYS.contains(e.key()));
        if (!touches || isStopped(liveState) || isStopped(target) || !canStop) {
            return Lane.PLAIN;
        }
        return Lane.STOP_FIRST;
    }

    /**
     * Whether stopping a connector first is possible and worth it.
     *
     * @param role         the connector's role: only a MirrorSourceConnector's tasks copy the source's records, which
     *                     its {@code source.consumer.isolation.level} filters
     * @param version      the Kafka version of the workers, empty when unknown (assumed recent: the operator's default)
     * @param replicas     the number of workers after the plan (none: no task runs anyway)
     * @param liveAccepted false when Kafka Connect refuses the connector's live configuration on the workers as they
     *                     run when the stop would be written ({@code required} while they are not all {@code enabled}):
     *                     Strimzi sends the configuration before the state, so its reconcile fails before the stop
     * @return true when a source connector on at least one worker of Kafka 3.5 or newer (KIP-875) takes a stop
     */
    public static boolean canStop(ConnectorRole role, Optional<KafkaVersion> version, int replicas, boolean liveAccepted) {
        return role == ConnectorRole.SOURCE && version.map(v -> !v.isBefore(3, 5)).orElse(true) && replicas > 0
                && liveAccepted;
    }

    /**
     * @param specState a {@code spec.state} value, or null
     * @return true for {@code stopped} (any case)
     */
    public static boolean isStopped(String specState) {
        return specState != null && STOPPED.equals(specState.toLowerCase(Locale.ROOT));
    }

    /**
     * @param specState a {@code spec.state} value, or null (running)
     * @return the runtime state Kafka Connect reports for it: {@code RUNNING}, {@code PAUSED} or {@code STOPPED}
     */
    public static String runtimeState(String specState) {
        if (specState == null) {
            return "RUNNING";
        }
        return switch (specState.toLowerCase(Locale.ROOT)) {
            case "paused" -> "PAUSED";
            case STOPPED -> "STOPPED";
            default -> "RUNNING";
        };
    }

    /**
     * @param sourceAlias a KafkaMirrorMaker2 mirror's source alias
     * @return the annotation that marks that mirror's source connector as stopped by flowform
     *         ({@code flowform.dev/resume-state.<alias>}: one KafkaMirrorMaker2 holds several mirrors)
     */
    public static String mirrorAnnotation(String sourceAlias) {
        return RESUME_ANNOTATION + "." + sourceAlias;
    }
}
