package dev.flowform.plan.cluster;

import dev.flowform.diag.Diagnostic;
import java.util.List;

/**
 * What one {@link Guard} says about a cluster's plan.
 *
 * @param diagnostics what it reports, each naming its rule; empty when it has nothing to say
 * @param refused     true when the cluster is refused: no step of it is planned, and no later guard is asked
 */
record Verdict(List<Diagnostic> diagnostics, boolean refused) {

    /** Nothing to report. */
    static final Verdict PASS = new Verdict(List.of(), false);

    Verdict {
        diagnostics = List.copyOf(diagnostics);
    }

    /** @return a verdict that reports {@code d} and lets planning go on (a warning, or an error about one connector) */
    static Verdict report(Diagnostic d) {
        return new Verdict(List.of(d), false);
    }

    /** @return a verdict that reports {@code d} and refuses the cluster */
    static Verdict refuse(Diagnostic d) {
        return new Verdict(List.of(d), true);
    }
}
