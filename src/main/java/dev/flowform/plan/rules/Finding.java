package dev.flowform.plan.rules;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Severity;
import dev.flowform.diag.SourceRange;
import dev.flowform.plan.Rule;

/**
 * What a rule says about one element of a configuration or desired state, before it is placed: the caller
 * knows where the element is written and turns the finding into a diagnostic there, as Terraform's contextual
 * diagnostics ({@code tfdiags.AttributeValue}) get their source range from the body they are elaborated in.
 *
 * @param rule     the rule that speaks, with its source
 * @param severity error (the element is refused) or warning
 * @param summary  one line
 * @param detail   what is wrong and how to fix it, without the rule's citation
 * @param subject  which part of the checked element the diagnostic points at
 */
public record Finding(Rule rule, Severity severity, String summary, String detail, Subject subject) {

    /** Which part of the checked element a finding is about. */
    public enum Subject {
        /** The key of a configuration entry. */
        KEY,
        /** The value of a configuration entry. */
        VALUE,
        /** The element the caller asked about as a whole: an argument's value, a block, a desired connector. */
        ELEMENT
    }

    /** @return true for {@link Severity#ERROR} */
    public boolean isError() {
        return severity == Severity.ERROR;
    }

    /** @return the diagnostic at {@code range} and {@code address} (either may be null), citing the rule, as planned */
    public Diagnostic cited(SourceRange range, String address) {
        return rule.diagnostic(severity, summary, detail, range, address);
    }

    /** @return the diagnostic in the words alone, without the citation: how configuration validation reports */
    public Diagnostic uncited(SourceRange range, String address) {
        return new Diagnostic(severity, summary, detail, range, address);
    }
}
