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
 * Computes the plan that takes the live cluster to the desired state without passing through an unsafe state, or
 * refuses with a diagnostic that names the rule and its source. Pure function of its inputs: no I/O, no clock.
 *
 * <p>Each KafkaConnect (with the flows on it) and each KafkaMirrorMaker2 is planned by {@link ClusterPlanner} through
 * one path: facts, an ordered list of guards each naming its {@link Rule}, a sequencer (docs/architecture.md, "The
 * planner"; the rules in docs/domain-rules.md, the refusals in docs/refusals.md). This class numbers the chains (a
 * connector lane depends on the step before the connectors), applies {@code --target} (a targeted resource keeps the
 * steps it depends on) and {@code --transfer-ownership}, and adds drift from the request's recorded snapshots
 * ({@link Drift}).
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
     * Plans one environment from what the configuration asks for, one consistent read of the cluster, and the
     * request (environment name, state reference, timestamp, flags, recorded state).
     *
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
