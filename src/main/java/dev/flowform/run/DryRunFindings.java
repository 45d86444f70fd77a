package dev.flowform.run;

import dev.flowform.apply.DryRun;
import dev.flowform.diag.Diagnostic;
import dev.flowform.plan.Step;

/** The diagnostic a plan shows for a step whose server-side dry run did not pass, on the step's resource. */
final class DryRunFindings {
    private DryRunFindings() {
    }

    /**
     * @param finding what the dry run found
     * @param secrets redacts the API server's message (it may quote a refused value)
     * @return an error when the API server refuses the write, else a warning
     */
    static Diagnostic diagnostic(DryRun.Finding finding, Secrets secrets) {
        Step s = finding.step();
        String step = "step " + s.id() + " (" + s.kind() + " " + s.object() + ")";
        String said = secrets.redact(finding.message());
        Diagnostic d = switch (finding.outcome()) {
            case REFUSED -> Diagnostic.error("The API server refuses this change",
                    "A server-side dry run (dryRun=All) of " + step + " was refused, so the apply would stop there:\n"
                            + said + "\nNothing was changed. Fix the configuration (or ask whoever owns the admission "
                            + "policy) and plan again; --no-dry-run skips this check.");
            case NOT_ALLOWED -> Diagnostic.warning("This change could not be checked with a dry run",
                    "The API server did not allow a server-side dry run of " + step + ":\n" + said + "\nRBAC authorizes a "
                            + "dry run as the write itself, so these credentials may only read; the apply needs "
                            + "credentials that may write. --no-dry-run skips the check.");
            case UNANSWERED -> Diagnostic.warning("The dry run of this change got no answer",
                    "The server-side dry run of " + step + " did not complete:\n" + said + "\nThe change was not "
                            + "checked; the apply will find out. --no-dry-run skips the check.");
        };
        return d.withAddress(s.address());
    }
}
