package dev.flowform.plan.resume;

import dev.flowform.diag.Diagnostic;
import dev.flowform.plan.Step;
import java.util.ArrayList;
import java.util.List;

/**
 * The warning a resumed plan opens with: which step the interrupted run was in, what of it reached the cluster,
 * and which waits are checked first. Pure.
 */
final class ResumeNotice {

    private ResumeNotice() {
    }

    /** @return the warning ("Apply interrupted during step 3 of 5: WAIT_FOR_ROLL connect_cluster.west") */
    static Diagnostic of(Resume.PriorRun prior, List<Step> open, List<Step> confirmed, List<Step> carried) {
        int total = prior.plan().steps().size();
        String summary;
        if (open.size() == 1) {
            Step s = open.get(0);
            summary = "Apply interrupted during step " + s.id() + " of " + total + ": " + s.kind() + " " + s.address();
        } else if (open.size() > 1) {
            List<String> parts = new ArrayList<>();
            open.forEach(s -> parts.add(s.id() + " (" + s.kind() + " " + s.address() + ")"));
            summary = "Apply interrupted during steps " + String.join(", ", parts) + " of " + total;
        } else {
            Step last = null;
            for (Step s : prior.plan().steps()) {
                if (prior.state(s.id()) == Resume.StepState.DONE) {
                    last = s;
                }
            }
            summary = last == null ? "Apply interrupted before its first step"
                    : "Apply interrupted after step " + last.id() + " of " + total + ": " + last.kind() + " " + last.address();
        }
        StringBuilder detail = new StringBuilder();
        detail.append("Run ").append(prior.runId()).append(" (apply by ").append(prior.who()).append(", started ")
                .append(prior.startedAt()).append(") ")
                .append(open.stream().anyMatch(s -> prior.state(s.id()) == Resume.StepState.STARTED)
                        ? "did not finish: its process was killed or lost its connection."
                        : "was stopped before it finished.")
                .append(" flowform re-read the live cluster and continues with only what is still needed.");
        for (Step s : open) {
            if (!s.kind().isMutation()) {
                continue;
            }
            detail.append(confirmed.contains(s)
                    ? " Step " + s.id() + " (" + s.kind() + " " + s.address() + ") had reached the cluster; it is recorded as done."
                    : " Step " + s.id() + " (" + s.kind() + " " + s.address() + ") had not reached the cluster; it is planned again.");
        }
        if (!carried.isEmpty()) {
            List<String> what = new ArrayList<>();
            carried.forEach(c -> what.add(c.kind() + " " + c.address()));
            detail.append(" Waits it had not seen finish are checked first: ").append(String.join(", ", what)).append('.');
        }
        return Diagnostic.warning(summary, detail.toString());
    }
}
