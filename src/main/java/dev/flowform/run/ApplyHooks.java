package dev.flowform.run;

import dev.flowform.apply.ApplyListener;
import dev.flowform.apply.ApplyResult;
import dev.flowform.plan.Plan;
import dev.flowform.state.OutputRecord;
import java.util.List;
import java.util.Optional;

/**
 * What an {@link ApplyOperation} tells its view, in this order (Terraform's apply hooks and views): the plan,
 * the approval, the steps' events, then how the run ended and the outputs. The view decides how each is shown.
 */
public interface ApplyHooks extends RunHooks {

    /**
     * The plan to apply is ready; shown before the approval.
     *
     * @param plan the plan, secrets still in it (the view masks them)
     */
    void planned(Plan plan);

    /**
     * Asks whether to apply the plan just shown.
     *
     * @param environment the environment the actions are performed in
     * @return true when approved; false when refused or there is no one to ask (the view said so)
     */
    boolean approve(String environment);

    /**
     * The steps are about to run.
     *
     * @param plan the plan being applied
     * @return the listener of the steps' events, called from the apply's threads
     */
    ApplyListener applying(Plan plan);

    /** The steps are over: the listener {@link #applying} returned gets no more events. */
    void applied();

    /**
     * The apply completed.
     *
     * @param plan        the plan applied
     * @param refreshOnly true for a refresh-only plan (the state was updated, not the cluster)
     * @param detail      what was done, e.g. {@code Resources: 0 added, 2 changed, 0 destroyed; 2 rolling restarts in 5.6s.}
     */
    void complete(Plan plan, boolean refreshOnly, String detail);

    /**
     * The outputs recorded in the state after a successful apply.
     *
     * @param outputs the outputs as the state holds them (sensitive values hashed), possibly none
     */
    void outputs(List<OutputRecord> outputs);

    /**
     * Steps ran but the apply did not complete: a step failed, it was interrupted, or the state lock or a cluster
     * lease was lost.
     *
     * @param result   what every step did
     * @param summary  the one-line summary ({@link ApplyReport#summaryLine})
     * @param lockLost why the lock or a lease was lost (then the run's outcome was not recorded), or empty
     */
    void incomplete(ApplyResult result, String summary, Optional<String> lockLost);

    /**
     * The apply was stopped (Ctrl-C, SIGTERM, a lost lock) before any step ran.
     *
     * @param reason why, e.g. {@code interrupted by Ctrl-C (SIGINT)}
     */
    void stoppedBeforeStart(String reason);
}
