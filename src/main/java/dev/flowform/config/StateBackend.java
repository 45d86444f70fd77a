package dev.flowform.config;

import dev.flowform.diag.SourceRange;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a configuration keeps its environments' state: the {@code backend} block (Terraform's), or the default.
 *
 * <p>Only the {@code local} backend exists: {@code "backend": {"local": {"path": "state"}}} keeps one folder per
 * environment under {@code path}, a path relative to the folder of the file that declares the block (an absolute
 * path is taken as it is). Without a block the state lives in {@value #DEFAULT_FOLDER} under the configuration
 * folder, so the same configuration finds the same state whatever the shell's working directory.
 * {@code --state-dir} on the command line overrides both.
 *
 * @param type       the backend type; always {@value #LOCAL}
 * @param stateDir   the state folder, absolute and normalised
 * @param declaredAt where the block's type label is written, or null for the default
 */
public record StateBackend(String type, Path stateDir, SourceRange declaredAt) {

    /** The one backend type flowform has. */
    public static final String LOCAL = "local";

    /** The state folder, relative to the configuration folder, when no backend block says otherwise. */
    public static final String DEFAULT_FOLDER = "state";

    /** Checks the fields. */
    public StateBackend {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(stateDir, "stateDir");
    }

    /**
     * @param configDir the configuration folder, absolute (a relative one gives a relative state folder: this pure
     *                  class does not read the working directory)
     * @return the default backend: {@code <configDir>/state}
     */
    public static StateBackend defaultFor(Path configDir) {
        return new StateBackend(LOCAL, configDir.resolve(DEFAULT_FOLDER).normalize(), null);
    }

    /** @return true when no backend block was declared */
    public boolean isDefault() {
        return declaredAt == null;
    }
}
