package dev.flowform.config.syntax;

import dev.flowform.diag.Diagnostics;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One configuration file after {@link JsonSourceParser}: its text, its located tree, and the syntax
 * errors found.
 *
 * @param filename    the name diagnostics show, relative to the configuration folder (e.g. {@code main.flow.json})
 * @param baseDir     the folder relative paths written in this file resolve against (absolute), or null when the
 *                    text did not come from a file
 * @param text        the decoded text, or null when the bytes were not valid UTF-8
 * @param root        the root object, or null when the file has syntax errors
 * @param diagnostics the syntax errors (empty when {@code root} is present)
 */
public record ParsedFile(String filename, Path baseDir, SourceText text, ConfigNode.ObjectNode root, Diagnostics diagnostics) {
    /** Checks the required components. */
    public ParsedFile {
        Objects.requireNonNull(filename, "filename");
        Objects.requireNonNull(diagnostics, "diagnostics");
    }

    /** @return true when the file parsed into a tree without errors */
    public boolean ok() {
        return root != null && !diagnostics.hasErrors();
    }
}
