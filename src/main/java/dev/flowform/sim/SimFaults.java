package dev.flowform.sim;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;

/**
 * Fault switches of one {@link EmbeddedCluster}, for reliability tests (docs/architecture.md). Thread-safe;
 * every switch takes effect at once.
 *
 * <p>Write faults hit only requests from clients other than the simulator's own (told apart by the
 * {@code User-Agent} header), so the simulated operator never trips over them.
 */
public final class SimFaults {
    private final AtomicInteger failWrites = new AtomicInteger();
    private final AtomicInteger failWriteStatus = new AtomicInteger(500);
    private final AtomicInteger loseEvents = new AtomicInteger();
    private final Set<String> stuckPods = ConcurrentHashMap.newKeySet();
    private final AtomicReference<String> failReconcileMessage = new AtomicReference<>();
    private volatile boolean operatorPaused;
    private volatile Duration slowRollExtra = Duration.ZERO;
    private final CopyOnWriteArrayList<Listener> listeners = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<FieldDenial> denials = new CopyOnWriteArrayList<>();
    private final Set<String> forbidden = ConcurrentHashMap.newKeySet();
    private final IntSupplier watchDropper;

    /** Callbacks for the simulator, which must react when a switch is turned off. */
    interface Listener {
        /** Called after {@link SimFaults#pauseOperator(boolean)} changed the state. */
        void operatorPaused(boolean paused);

        /** Called after {@link SimFaults#unstickPod(String)} released {@code podName}. */
        void podUnstuck(String podName);
    }

    /** @param watchDropper closes the server side of every open watch and returns how many it closed */
    SimFaults(IntSupplier watchDropper) {
        this.watchDropper = Objects.requireNonNull(watchDropper);
    }

    void addListener(Listener l) {
        listeners.add(l);
    }

    /**
     * Makes the API server answer the next {@code count} POST/PUT/PATCH requests to {@code kafkaconnects} or
     * {@code kafkaconnectors} (status subresource included) with {@code httpStatus} and a Kubernetes
     * {@code Status} body (reason {@code Conflict} for 409, {@code InternalError} for 500, ...). Calls add up
     * the count; the last status wins. Note that fabric8 clients retry 5xx answers on their own
     * ({@code requestRetryBackoffLimit}), which consumes several injected failures per call.
     *
     * @param count      number of writes to fail, at least 0 (0 clears the switch)
     * @param httpStatus the HTTP status to answer with, 400..599
     * @throws IllegalArgumentException on a negative count or a status outside 400..599
     */
    public void failNextWrites(int count, int httpStatus) {
        if (count < 0 || httpStatus < 400 || httpStatus > 599) {
            throw new IllegalArgumentException("count must be >= 0 and httpStatus 400..599, got " + count + "/" + httpStatus);
        }
        failWriteStatus.set(httpStatus);
        if (count == 0) {
            failWrites.set(0);
        } else {
            failWrites.addAndGet(count);
        }
    }

    /** @return how many injected write failures are still pending */
    public int pendingWriteFailures() {
        return failWrites.get();
    }

    /** @return the status to fail this write with, or 0 when it should pass (consumes one failure) */
    int takeWriteFailure() {
        return failWrites.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? failWriteStatus.get() : 0;
    }

    /**
     * Makes the named worker pod never become Ready once it is (re-)created: a roll that reaches it ends after
     * {@link SimSettings#stuckTimeout()} with condition {@code NotReady}, reason {@code TimeoutException}
     * (Strimzi's message, "Exceeded timeout of 300000ms while waiting for Pods resource ... to be ready").
     * A pod that is Ready now stays Ready until it is re-created.
     *
     * @param podName e.g. {@code repl-connect-connect-1} (pod names are matched in every namespace)
     */
    public void stuckPod(String podName) {
        stuckPods.add(Objects.requireNonNull(podName));
    }

    /**
     * Releases a pod stuck by {@link #stuckPod(String)}: if it exists and is not Ready, the simulated kubelet
     * reports it Ready after {@link SimSettings#podReadyDelay()}. A reconcile that already failed is not
     * retried (Strimzi would retry at its next periodic reconcile; see
     * {@link StrimziSimulator#triggerReconcile(String, String)}).
     *
     * @param podName the pod name
     */
    public void unstickPod(String podName) {
        if (stuckPods.remove(podName)) {
            listeners.forEach(l -> l.podUnstuck(podName));
        }
    }

    /**
     * @param podName the pod name
     * @return true when {@code podName} is held not Ready
     */
    public boolean isStuck(String podName) {
        return stuckPods.contains(podName);
    }

    /**
     * Makes the next KafkaConnect reconcile (of any cluster) fail before it touches a pod: the status gets
     * {@code observedGeneration} = the generation it read and condition {@code NotReady} with reason
     * {@code RuntimeException} and this message, as Strimzi does after a failed reconcile.
     *
     * @param message the condition message
     */
    public void failNextReconcile(String message) {
        failReconcileMessage.set(Objects.requireNonNull(message));
    }

    /** @return the pending reconcile failure message, consuming it, or null */
    String takeReconcileFailure() {
        return failReconcileMessage.getAndSet(null);
    }

    /**
     * Stops or restarts the simulated operator, as if its pod were down: while paused it ignores every
     * event and abandons an in-flight roll (pods already Pending still become Ready: that is the kubelet's
     * job). On resume it reconciles every KafkaConnect and every unobserved KafkaConnector, as Strimzi does
     * at start-up.
     *
     * @param paused true to stop the operator, false to start it again
     */
    public void pauseOperator(boolean paused) {
        boolean changed = operatorPaused != paused;
        operatorPaused = paused;
        if (changed) {
            listeners.forEach(l -> l.operatorPaused(paused));
        }
    }

    /** @return true while the operator is paused */
    public boolean operatorPaused() {
        return operatorPaused;
    }

    /**
     * Slows every roll: each re-created worker pod becomes Ready {@code extraPerPod} later than
     * {@link SimSettings#podReadyDelay()}.
     *
     * @param extraPerPod additional readiness delay per pod, not negative ({@link Duration#ZERO} clears it)
     * @throws IllegalArgumentException when negative
     */
    public void slowRoll(Duration extraPerPod) {
        if (extraPerPod.isNegative()) {
            throw new IllegalArgumentException("extraPerPod must not be negative");
        }
        slowRollExtra = extraPerPod;
    }

    /** @return the extra readiness delay per pod set by {@link #slowRoll(Duration)} */
    public Duration slowRollExtra() {
        return slowRollExtra;
    }

    /**
     * Closes the server side of every open watch WebSocket (close code 1000), as an API server restart or a
     * load balancer timeout would. fabric8 watches and informers then reconnect on their own; the mock
     * re-sends ADDED for every current object (it never answers 410 Gone).
     *
     * @return the number of watches closed
     */
    public int dropWatches() {
        return watchDropper.getAsInt();
    }

    /**
     * Makes the simulated operator miss the next {@code count} watch events of KafkaConnects and KafkaConnectors, as
     * when a write lands between an informer's list and its watch: only Strimzi's periodic reconciliation finds such
     * a change.
     *
     * @param count events to lose, at least 0 (0 clears the switch)
     * @throws IllegalArgumentException on a negative count
     */
    public void loseWatchEvents(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative");
        }
        loseEvents.set(count);
    }

    /** @return true (and counts it) when the switch says this watch event is lost */
    boolean takeLostEvent() {
        return loseEvents.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }

    /**
     * An admission policy the API server runs after schema validation, as a validating admission webhook
     * (Kyverno, Gatekeeper) would: a write whose resulting object has a value at {@code pointer} is refused.
     *
     * @param kind    e.g. {@code KafkaConnect}
     * @param pointer a JSON pointer into the object, e.g. {@code /spec/config/offset.flush.timeout.ms}
     * @param message the policy's reason
     */
    record FieldDenial(String kind, String pointer, String message) {
        public FieldDenial {
            Objects.requireNonNull(kind);
            Objects.requireNonNull(pointer);
            Objects.requireNonNull(message);
        }
    }

    /**
     * Makes the API server refuse every create, update or patch (dry runs included) from clients other than the
     * simulator of a {@code kind} object that has a value at {@code pointer}, as a validating admission webhook
     * does: HTTP 400 with the message {@code admission webhook "policy.flowform.dev" denied the request: <message>}
     * (what the API server answers when a webhook denies without a status code of its own).
     *
     * @param kind    e.g. {@code KafkaConnect}
     * @param pointer a JSON pointer into the resulting object, e.g. {@code /spec/config/offset.flush.timeout.ms}
     * @param message the policy's reason
     */
    public void denyField(String kind, String pointer, String message) {
        denials.add(new FieldDenial(kind, pointer, message));
    }

    /** @return the field denials in force */
    List<FieldDenial> denials() {
        return List.copyOf(denials);
    }

    /**
     * Makes the API server's authorization refuse {@code verb} on {@code resource} for clients other than the
     * simulator, in every namespace, dry runs included (RBAC authorizes a dry run as the write itself): HTTP 403 with
     * the RBAC authorizer's message ({@code ... is forbidden: User "..." cannot patch resource ...}).
     *
     * @param verb     {@code create}, {@code update}, {@code patch} or {@code delete}
     * @param resource e.g. {@code kafkaconnects}
     */
    public void forbid(String verb, String resource) {
        forbidden.add(verb + " " + resource);
    }

    /** @return true when {@link #forbid(String, String)} refuses {@code verb} on {@code resource} */
    boolean isForbidden(String verb, String resource) {
        return forbidden.contains(verb + " " + resource);
    }

    /**
     * Turns every switch off: no write failures, no stuck pods, no reconcile failure, operator running, no slow roll,
     * no field denial, nothing forbidden.
     */
    public void clear() {
        denials.clear();
        forbidden.clear();
        failWrites.set(0);
        failReconcileMessage.set(null);
        loseEvents.set(0);
        slowRollExtra = Duration.ZERO;
        for (String pod : Set.copyOf(stuckPods)) {
            unstickPod(pod);
        }
        pauseOperator(false);
    }
}
