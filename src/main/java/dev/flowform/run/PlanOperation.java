package dev.flowform.run;

import dev.flowform.apply.DryRun;
import dev.flowform.apply.Fabric8ClusterWriter;
import dev.flowform.diag.Diagnostic;
import dev.flowform.model.LiveState;
import dev.flowform.plan.Json;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanOptions;
import dev.flowform.plan.PlanRequest;
import dev.flowform.plan.Planner;
import dev.flowform.plan.RecordedResource;
import dev.flowform.plan.resume.Resume;
import dev.flowform.plan.rules.IdentityGuard;
import dev.flowform.state.EnvironmentRecord;
import dev.flowform.state.ResourceSnapshot;
import dev.flowform.state.StateStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plans one environment (Terraform's local backend {@code opPlan}): the desired state against the live cluster,
 * based on the current state version, with drift measured against the state's resource snapshots; an apply the
 * last run left unfinished is continued ({@link Resume}). Changes nothing.
 *
 * <p>With dry runs on, an applyable plan's writes are then sent to the API server as server-side dry runs
 * ({@link DryRun}, docs/strimzi-crds.md): a write the API server refuses becomes an error on its resource (the plan
 * cannot be applied), a dry run RBAC does not allow or the server cannot answer a warning.
 */
public final class PlanOperation {

    /** How many objects are dry-run at once. */
    static final int DRY_RUN_PARALLELISM = 8;

    private final Environment env;
    private final Clock clock;
    private final boolean dryRun;

    /**
     * A plan without dry runs (e.g. to draw it).
     *
     * @param env   the open environment
     * @param clock the time the plan is made at
     */
    public PlanOperation(Environment env, Clock clock) {
        this(env, clock, false);
    }

    /**
     * @param env    the open environment
     * @param clock  the time the plan is made at
     * @param dryRun true to send the plan's writes as server-side dry runs ({@code --no-dry-run} turns it off)
     */
    public PlanOperation(Environment env, Clock clock, boolean dryRun) {
        this.env = env;
        this.clock = clock;
        this.dryRun = dryRun;
    }

    /**
     * The plan of a read-only command: reads the cluster, continues the last apply when it did not finish
     * (unless it is still running in another process: then a warning says so instead), and runs the
     * {@link IdentityGuard}, whose error makes the plan unappliable.
     *
     * @param options the user's planning flags
     * @return the plan, its diagnostics in order: the running apply's warning, the planner's, the guard's
     * @throws OperationFailed after reporting that the cluster cannot be read
     */
    public Plan plan(PlanOptions options) {
        StateStore state = env.state();
        LiveState live = env.cluster().readLive(env.workspace().desired());
        Optional<Resume.Analysis> resume = Optional.empty();
        Diagnostic running = null;
        PriorRunReader reader = new PriorRunReader(state);
        Optional<PriorRunReader.Prior> prior = reader.unfinished();
        if (prior.isPresent()) {
            Optional<Diagnostic> busy = reader.inProgress(prior.get(), clock);
            if (busy.isPresent()) {
                running = busy.get();
            } else {
                resume = Optional.of(Resume.analyze(prior.get().run(), live, state.cipher()::hash));
            }
        }
        List<Diagnostic> identity = identity();
        Plan plan = planned(live, options, resume);
        if (identity.isEmpty()) {
            plan = dryRun(plan);
        }
        List<Diagnostic> diags = new ArrayList<>();
        if (running != null) {
            diags.add(running);
        }
        diags.addAll(plan.diagnostics());
        diags.addAll(identity);
        return diags.equals(plan.diagnostics()) ? plan : plan.withDiagnostics(diags);
    }

    /**
     * Plans the desired state against {@code live}, continuing {@code resume} when given, and dry-runs its writes when
     * dry runs are on. Does not run the {@link IdentityGuard}: its caller did, once.
     *
     * @param options the user's planning flags
     * @param resume  what an unfinished prior run left, or empty
     * @return the plan
     */
    Plan plan(LiveState live, PlanOptions options, Optional<Resume.Analysis> resume) {
        return dryRun(planned(live, options, resume));
    }

    private Plan planned(LiveState live, PlanOptions options, Optional<Resume.Analysis> resume) {
        StateStore state = env.state();
        Plan fresh = Planner.plan(env.workspace().desired(), live, new PlanRequest(env.workspace().environment(),
                state.stateRef(), clock.instant(), options, recorded(state), state.cipher()::hash));
        return resume.map(a -> Resume.continuePlan(fresh, a, live)).orElse(fresh);
    }

    /** @return {@code plan} with what the API server's dry runs of its writes found (nothing when dry runs are off) */
    private Plan dryRun(Plan plan) {
        if (!dryRun || !plan.isApplyable() || plan.isRefreshOnly() || plan.steps().stream().noneMatch(s -> s.kind().isMutation())) {
            return plan;
        }
        // the reading client: a plan builds no second client for its checks (fabric8 retries a 5xx on its own)
        List<DryRun.Finding> findings = new DryRun(Fabric8ClusterWriter.dryRun(env.cluster().client()),
                DRY_RUN_PARALLELISM).check(plan.steps());
        if (findings.isEmpty()) {
            return plan;
        }
        List<Diagnostic> diags = new ArrayList<>(plan.diagnostics());
        findings.forEach(f -> diags.add(DryRunFindings.diagnostic(f, env.secrets())));
        return plan.withDiagnostics(diags);
    }

    /**
     * Runs the {@link IdentityGuard} on the server this environment talks to.
     *
     * @return the error to refuse with, or nothing when the server is the expected one
     */
    List<Diagnostic> identity() {
        EnvironmentRecord recorded = env.state().environment();
        return IdentityGuard.check(new IdentityGuard.Facts(env.workspace().environment(),
                env.workspace().config().environment().expectedServer(), env.cluster().serverIdentity(),
                recorded.kubeServer(), recorded.kubeNamespace()));
    }

    /**
     * @param state an environment's state
     * @return the state's resource snapshots as the planner takes them
     */
    public static List<RecordedResource> recorded(StateStore state) {
        List<RecordedResource> out = new ArrayList<>();
        for (ResourceSnapshot r : state.snapshots().all()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> body = Json.MAPPER.readValue(r.bodyJson(), LinkedHashMap.class);
            out.add(new RecordedResource(r.address(), r.kind(), r.namespace(), r.name(), body, r.updatedSerial()));
        }
        return out;
    }
}
