package dev.flowform.config;

import dev.flowform.diag.Diagnostics;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link ConfigLoader#validate} returns: every problem of the configuration for each
 * environment checked, merged.
 *
 * @param diagnostics  errors and warnings, sorted by file, line and column (sourceless ones last); a problem that
 *                     occurs in some of the environments only says so at the end of its detail
 * @param sources      file name (as diagnostics name it) to the file's text, for source snippets
 * @param environments the environments checked, in name order (empty when none could be)
 */
public record ValidationResult(Diagnostics diagnostics, Map<String, String> sources, List<String> environments) {
    public ValidationResult {
        Objects.requireNonNull(diagnostics, "diagnostics");
        sources = Map.copyOf(sources);
        environments = List.copyOf(environments);
    }

    /** @return true when there are no errors (warnings allowed) */
    public boolean valid() {
        return !diagnostics.hasErrors();
    }
}
