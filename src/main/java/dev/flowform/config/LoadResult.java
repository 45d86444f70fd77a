package dev.flowform.config;

import dev.flowform.diag.Diagnostics;
import java.util.Objects;

/**
 * What {@link ConfigLoader#load} returns: the configuration when it is valid, and every problem found.
 *
 * @param configuration the loaded configuration, or null when {@code diagnostics} has errors
 * @param diagnostics   errors and warnings, sorted by file, line and column (sourceless ones last)
 * @param sources       file name (as diagnostics name it) to the file's text, for source snippets
 */
public record LoadResult(Configuration configuration, Diagnostics diagnostics, java.util.Map<String, String> sources) {

    /** A result without source texts. */
    public LoadResult(Configuration configuration, Diagnostics diagnostics) {
        this(configuration, diagnostics, java.util.Map.of());
    }

    /** Checks the diagnostics are present and that a configuration comes only without errors. */
    public LoadResult {
        Objects.requireNonNull(diagnostics, "diagnostics");
        sources = sources == null ? java.util.Map.of() : java.util.Map.copyOf(sources);
        if (configuration != null && diagnostics.hasErrors()) {
            throw new IllegalArgumentException("a configuration with errors must not be returned");
        }
    }

    /** @return true when the configuration loaded (warnings allowed) */
    public boolean ok() {
        return configuration != null;
    }
}
