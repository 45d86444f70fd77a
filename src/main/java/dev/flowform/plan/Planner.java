package dev.flowform.plan;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Diagnostics;
import dev.flowform.diag.Suggestions;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveState;
import dev.flowform.plan.cluster.ClusterPlan;
import dev.flowform.plan.cluster.ClusterPlanner;
import dev.flowform.plan.cluster.Draft;
import dev.flowform.plan.cluster.PlanScope;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Computes the plan that takes the live cluster to the desired state without passing through an
 * unsafe state, or refuses with a diagnostic that names the rule and its source. Pure function of its
 * inputs: no I/O, no clock.
 *
 * <p>Per Connect cluster, {@link ClusterPlanner} builds one chain of steps from the cluster's facts, computed once,
 * after an ordered list of guards, each naming its {@link Rule}, has let it through (package
 * {@code dev.flowform.plan.cluster}); this class numbers the chains, applies {@code --target} and adds drift. The
 * rules (docs/domain-rules.md):
 * <ol>
 *   <li>a missing cluster is created with its final EOS mode directly (rule 2: "For new Connect clusters,
 *       set the exactly.once.source.support property to enabled", Kafka docs {@code connect_exactlyoncesource});</li>
 *   <li>an existing cluster goes {@code disabled → preparing → enabled}, each patch followed by a
 *       {@code WAIT_FOR_ROLL} that implements rule 7, because patching {@code enabled} before every worker rolled
 *       with {@code preparing} lets Strimzi skip the preparing roll (rule 2);</li>
 *   <li>a roll already in progress ({@code observedGeneration} behind, or workers not yet on the revision) is
 *       waited for first;</li>
 *   <li>a cluster whose reconciliation is paused is refused; one whose last reconcile failed ({@code NotReady} at
 *       its generation) is refused with the operator's message unless {@link PlanOptions#acceptFailedReconcile()},
 *       and then only when the plan's own spec change makes the operator roll again before any step that needs
 *       the workers' mode;</li>
 *   <li>changing the group id or a storage topic of an existing cluster whose workers run {@code preparing} or
 *       {@code enabled} is refused unless {@link PlanOptions#acceptNewClusterIdentity()} (KIP-618: the transactional
 *       IDs derive from the group id, and the source offsets live in the offsets topic);</li>
 *   <li>adding {@code strimzi.io/use-connector-resources} to an existing cluster is refused unless
 *       {@link PlanOptions#enableConnectorResources()} (rule 6: Strimzi then deletes connectors without a
 *       KafkaConnector);</li>
 *   <li>connector creations and updates come after the last roll to {@code enabled}, because Kafka rejects
 *       {@code exactly.once.support: required} while the validating worker is {@code disabled} or
 *       {@code preparing} (rule 3); each is followed by {@code WAIT_FOR_CONNECTOR_READY} (rule 8) unless the
 *       cluster has 0 replicas (no worker could run it);</li>
 *   <li>disabling EOS runs in reverse: connectors first, then the workers (rule 5);</li>
 *   <li>changing only connector configuration never touches the KafkaConnect (no roll);</li>
 *   <li>removing a flow deletes only connectors flowform created in this environment;</li>
 *   <li>an existing object whose ownership marks ({@link Ownership}) name another environment or state lineage is
 *       refused unless {@link PlanOptions#transferOwnership()} names it; then a {@code TRANSFER_OWNERSHIP} step
 *       first in the chain rewrites the marks. Every other object the plan writes to gets our marks with its first
 *       write (a new object with its manifest), never with a step of its own.</li>
 * </ol>
 * Preflight checks add diagnostics: the Kafka version from {@code spec.version} (Cloudera builds such as
 * {@code 3.9.0.1.4} included; below 3.3 an error, below 3.5 an error for MirrorMaker 2 EOS, below 3.6 a
 * warning for KAFKA-15059; without {@code spec.version} the version {@code status.connectorPlugins} reports, else
 * the operator's default, unchecked; a version that cannot be read refuses exactly-once unless
 * {@link PlanOptions#acceptUnknownKafkaVersion()}), a live spec without {@code replicas} or
 * {@code bootstrapServers}, {@code read_committed}, {@code required} on checkpoint/heartbeat,
 * {@code transaction.boundary: connector}, keys Strimzi {@code v1} ignores, 0 replicas, FAILED connectors.
 * The plan lists the transactional IDs that will need ACLs.
 *
 * <p>{@code --target} ({@link PlanOptions#targets()}) keeps the steps of the targeted resources and what they
 * depend on: for a connector the cluster steps before it in its chain (the EOS rollout it needs), for a
 * cluster every step before it (under reverse order those are the connectors that must drop
 * {@code required} first). Drift ({@link Drift}) comes from the request's recorded snapshots.
 */
public final class Planner {

    /** Label recording which flowform environment created an object, so another environment never deletes it. */
    public static final String ENVIRONMENT_LABEL = "flowform.dev/environment";

    /** Terraform's warning for {@code -target}, adapted. */
    static final String TARGETING_DETAIL = "You are creating a plan with the --target option, which means that the result "
            + "of this plan may not represent all of the changes requested by the current configuration.\n\nThe --target "
            + "option is not for routine use, and is provided only for exceptional situations such as recovering from "
            + "errors or mistakes, or when flowform specifically suggests to use it as part of an error message.";

    private Planner() {
    }

    /**
     * Plans one environment.
     *
     * @param desired what the configuration asks for
     * @param live    what the cluster holds (one consistent read)
     * @param request environment name, state reference, timestamp, flags and recorded state
     * @return the plan; its diagnostics hold refusals (errors) and warnings
     */
    public static Plan plan(DesiredState desired, LiveState live, PlanRequest request) {
        PlanOptions options = request.options();
        PlanMode mode = options.refreshOnly() ? PlanMode.REFRESH_ONLY : PlanMode.NORMAL;
        if (live.api() == null) {
            return strimziMissing(live, request, mode);
        }
        Diagnostics diags = new Diagnostics();
        List<ClusterPlan> clusters = mode == PlanMode.NORMAL ? planClusters(desired, live, request) : List.of();
        clusters.forEach(c -> diags.addAll(c.diagnostics()));
        Map<String, String> flowOf = flowOf(desired, clusters, mode);
        if (!options.transferOwnership().isEmpty()) {
            checkTransfers(options.transferOwnership(), desired, clusters, flowOf, diags, mode);
        }
        Predicate<String> targeted = options.targets().isEmpty() ? a -> true
                : targeting(options.targets(), desired, clusters, flowOf, diags);
        List<Change> changes = new ArrayList<>();
        List<Step> steps = new ArrayList<>();
        List<TransactionalId> txIds = new ArrayList<>();
        for (ClusterPlan cp : clusters) {
            number(cp, targeted, steps, changes, txIds);
        }
        changes.sort(Comparator.comparing(Change::address));
        List<DriftEntry> drift = Drift.detect(desired, live, request.recorded(), request.hashSecret(), changes,
                mode == PlanMode.REFRESH_ONLY).stream().filter(e -> targeted.test(e.address())).toList();
        return new Plan(Plan.FORMAT_VERSION, request.environment(), request.now(), request.basedOn(), live.fingerprints(),
                changes, steps, diags.list(), mode, options.targets(), drift, txIds, PlanInputs.NONE);
    }

    /** @return the plan that refuses everything because the API serves no Strimzi */
    private static Plan strimziMissing(LiveState live, PlanRequest request, PlanMode mode) {
        Diagnostic missing = Rule.STRIMZI_MISSING.error("Strimzi is not installed",
                "The Kubernetes API serves no KafkaConnect resource in kafka.strimzi.io/v1 or v1beta2. Install the "
                        + "Strimzi (or Cloudera Streams Messaging) operator and its CRDs first.", null);
        return new Plan(Plan.FORMAT_VERSION, request.environment(), request.now(), request.basedOn(), live.fingerprints(),
                List.of(), List.of(), List.of(missing), mode, request.options().targets(), List.of(), List.of(),
                PlanInputs.NONE);
    }

    /** @return the plan of every declared cluster, in address order */
    private static List<ClusterPlan> planClusters(DesiredState desired, LiveState live, PlanRequest request) {
        PlanScope scope = new PlanScope(desired, live, request.environment(),
                request.basedOn() == null ? null : request.basedOn().lineage(), request.options());
        List<DesiredConnectCluster> sorted = new ArrayList<>(desired.clusters());
        sorted.sort(Comparator.comparing(DesiredConnectCluster::address));
        List<ClusterPlan> plans = new ArrayList<>(sorted.stream().map(dc -> ClusterPlanner.plan(scope, dc)).toList());
        desired.mirrorMakers().stream().sorted(Comparator.comparing(DesiredMirrorMaker2::address))
                .forEach(m -> plans.add(ClusterPlanner.plan(scope, m)));
        return plans;
    }

    /** @return address of each desired connector to its flow's: of the planned clusters, or of every flow when refreshing */
    private static Map<String, String> flowOf(DesiredState desired, List<ClusterPlan> clusters, PlanMode mode) {
        Map<String, String> flowOf = new HashMap<>();
        if (mode == PlanMode.NORMAL) {
            clusters.forEach(c -> flowOf.putAll(c.flowOf()));
        } else {
            for (DesiredFlow f : desired.flows()) {
                f.connectors().forEach(d -> flowOf.put(d.address(), f.address()));
            }
        }
        return flowOf;
    }

    /**
     * Numbers the kept steps of one cluster's chain after those already in {@code steps} and links them: a step on
     * the spine depends on the spine step before it, or on the last step of every lane opened since; a lane's step
     * depends on the one before it in its lane, or, first in its lane, on the spine step before it ({@link Draft}).
     * Adds the changes of the resources that keep a mutation, and the cluster's transactional IDs when any step is
     * kept.
     */
    private static void number(ClusterPlan cp, Predicate<String> targeted, List<Step> steps, List<Change> changes,
                               List<TransactionalId> txIds) {
        List<Draft> kept = keep(cp.chain(), cp.address(), targeted);
        Set<String> owners = new HashSet<>();
        List<Integer> spine = List.of();
        Map<String, Integer> laneTails = new java.util.LinkedHashMap<>();
        for (Draft d : kept) {
            int id = steps.size() + 1;
            List<Integer> deps;
            if (d.lane() != null) {
                Integer tail = laneTails.get(d.lane());
                deps = tail != null ? List.of(tail) : spine;
                laneTails.put(d.lane(), id);
            } else {
                deps = laneTails.isEmpty() ? spine : laneTails.values().stream().sorted().toList();
                laneTails.clear();
                spine = List.of(id);
            }
            steps.add(new Step(id, d.kind(), d.address(), d.object(), deps, d.payload(), d.summary()));
            if (d.kind().isMutation()) {
                owners.add(d.address());
            }
        }
        cp.changes().stream().filter(c -> owners.contains(c.address()) || ownedConnector(c.address(), owners))
                .forEach(changes::add);
        if (!kept.isEmpty()) {
            txIds.addAll(cp.transactionalIds());
        }
    }

    /** @return true when {@code address} is a connector of a resource a kept step changes ({@code <owner>.connector[...]}) */
    private static boolean ownedConnector(String address, Set<String> owners) {
        int at = address.indexOf(".connector[");
        return at > 0 && owners.contains(address.substring(0, at));
    }

    /**
     * Builds the target predicate and reports unknown addresses and the targeting warning.
     *
     * <p>An address {@code T} targets a resource {@code R} when {@code T == R}, when {@code R} is a connector of the
     * flow {@code T}, or when {@code T} is a module path prefix of {@code R} (or of its flow).
     */
    private static Predicate<String> targeting(List<String> targets, DesiredState desired, List<ClusterPlan> planners,
                                               Map<String, String> flowOf, Diagnostics diags) {
        Predicate<String> targeted = owner -> targets.stream().anyMatch(t -> Addresses.matches(t, owner, flowOf));
        Set<String> known = knownAddresses(desired, planners, flowOf);
        for (String t : targets) {
            if (!names(t, known, flowOf)) {
                diags.add(unknownAddress(Rule.TARGETING, "Unknown target address", "--target", t, known));
            }
        }
        diags.add(Rule.TARGETING.warning("Resource targeting is in effect", TARGETING_DETAIL, null));
        return targeted;
    }

    /**
     * Reports {@code --transfer-ownership} addresses that name no resource of the configuration (an error, as for
     * {@code --target}) or name only objects that carry this state's marks already (a warning: nothing to take over).
     */
    private static void checkTransfers(List<String> transfers, DesiredState desired, List<ClusterPlan> planners,
                                       Map<String, String> flowOf, Diagnostics diags, PlanMode mode) {
        if (mode == PlanMode.REFRESH_ONLY) {
            diags.add(Rule.OWNERSHIP.error("--transfer-ownership with --refresh-only",
                    "A refresh-only plan changes nothing on the cluster, so it cannot take objects over. Plan without "
                            + "--refresh-only.", null));
            return;
        }
        Set<String> known = knownAddresses(desired, planners, flowOf);
        for (String t : transfers) {
            if (!names(t, known, flowOf)) {
                diags.add(unknownAddress(Rule.OWNERSHIP, "Unknown address to transfer", "--transfer-ownership", t, known));
            } else if (planners.stream().flatMap(p -> p.transfers().keySet().stream())
                    .noneMatch(a -> Addresses.matches(t, a, flowOf))) {
                diags.add(Rule.OWNERSHIP.warning("Nothing to transfer",
                        "--transfer-ownership " + t + ": no existing object it names carries another state's ownership "
                                + "marks, so there is nothing to take over.", t));
            }
        }
    }

    /** @return true when {@code address} (as given to a flag) names at least one of the {@code known} addresses */
    private static boolean names(String address, Set<String> known, Map<String, String> flowOf) {
        return known.stream().anyMatch(a -> Addresses.matches(address, a, flowOf) || a.equals(address));
    }

    /**
     * @return the error for a flag's address that names no resource of the configuration, with the closest address it
     *         could have meant (a resource's, or a module path of one: {@link Suggestions}, as Terraform suggests)
     */
    private static Diagnostic unknownAddress(Rule rule, String summary, String flag, String address, Set<String> known) {
        Set<String> candidates = new HashSet<>(known);
        for (String a : known) {
            String[] parts = a.split("\\.");
            StringBuilder path = new StringBuilder();
            for (int i = 0; i + 2 < parts.length && parts[i].equals("module"); i += 2) {
                path.append(path.length() == 0 ? "" : ".").append("module.").append(parts[i + 1]);
                candidates.add(path.toString());
            }
        }
        return rule.error(summary, flag + " " + address + " names no resource of the configuration."
                + Suggestions.didYouMean(address, candidates) + " Addresses look like connect_cluster.NAME, "
                + "replication_flow.NAME, kafka_connector.NAME, mirrormaker2.NAME or module.NAME.", address);
    }

    /** @return every address the configuration and the planned chains know */
    private static Set<String> knownAddresses(DesiredState desired, List<ClusterPlan> planners, Map<String, String> flowOf) {
        Set<String> known = new HashSet<>(flowOf.keySet());
        desired.clusters().forEach(c -> known.add(c.address()));
        desired.mirrorMakers().forEach(m -> known.add(m.address()));
        desired.flows().forEach(f -> {
            known.add(f.address());
            for (DesiredConnector d : f.connectors()) {
                known.add(d.address());
            }
        });
        planners.forEach(p -> p.chain().forEach(d -> known.add(d.address())));
        return known;
    }

    /**
     * Keeps the targeted steps of one chain and their dependencies: a connector step needs the cluster
     * steps before it; a cluster step needs every step before it.
     */
    private static List<Draft> keep(List<Draft> chain, String clusterAddress,
                                                   Predicate<String> targeted) {
        boolean[] keep = new boolean[chain.size()];
        for (int i = 0; i < chain.size(); i++) {
            keep[i] = targeted.test(chain.get(i).address());
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 0; i < chain.size(); i++) {
                if (!keep[i]) {
                    continue;
                }
                boolean clusterStep = chain.get(i).address().equals(clusterAddress);
                for (int j = 0; j < i; j++) {
                    if (!keep[j] && (clusterStep || chain.get(j).address().equals(clusterAddress))) {
                        keep[j] = true;
                        changed = true;
                    }
                }
            }
        }
        List<Draft> out = new ArrayList<>();
        for (int i = 0; i < chain.size(); i++) {
            if (keep[i]) {
                out.add(chain.get(i));
            }
        }
        return out;
    }
}
