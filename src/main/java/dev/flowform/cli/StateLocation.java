package dev.flowform.cli;

import dev.flowform.config.ConfigLoader;
import dev.flowform.config.Configuration;
import dev.flowform.config.StateBackend;
import java.nio.file.Path;

/**
 * Where an environment's state lives, for every command: {@code --state-dir} when given (relative to the
 * working directory, like every command-line path), else the configuration's {@code backend} block (a folder, or a
 * PostgreSQL schema: {@link StateHome}), else {@code state} under the configuration folder ({@link StateBackend}). So the same configuration finds the same
 * state from any working directory.
 */
final class StateLocation {

    private StateLocation() {
    }

    /**
     * @param stateDirOption {@code --state-dir}, or null when not given
     * @param config         the loaded configuration
     * @return the state folder, absolute and normalised
     */
    static Path of(Path stateDirOption, Configuration config) {
        return stateDirOption != null ? stateDirOption.toAbsolutePath().normalize() : config.backend().stateDir();
    }

    /**
     * Finds the state folder without loading the whole configuration (only its {@code backend} blocks are read), for
     * commands that work on state alone.
     *
     * @param stateDirOption {@code --state-dir}, or null when not given
     * @param dir            the configuration folder ({@code --dir})
     * @param term           where problems go
     * @return the state folder, absolute and normalised
     * @throws CommandFailed after printing why, when the backend block is invalid or the files cannot be parsed
     */
    static Path resolve(Path stateDirOption, Path dir, Terminal term) {
        return home(stateDirOption, dir, term).stateDir();
    }

    /**
     * Finds where the state is, folder or PostgreSQL, reading only the configuration's {@code backend} blocks.
     *
     * @param stateDirOption {@code --state-dir}, or null when not given
     * @param dir            the configuration folder ({@code --dir})
     * @param term           where problems go
     * @return the state's home
     * @throws CommandFailed after printing why, when the backend block is invalid or the files cannot be parsed
     */
    static StateHome home(Path stateDirOption, Path dir, Terminal term) {
        if (stateDirOption != null) {
            return StateHome.of(stateDirOption, null, dir);
        }
        ConfigLoader.BackendLookup lookup = new ConfigLoader().backend(dir);
        term.addSources(lookup.sources());
        if (lookup.backend() == null) {
            term.diagnostics(lookup.diagnostics());
            term.error("Cannot tell where the state is", "The configuration in " + shown(dir) + " says where its state lives "
                    + "(its backend block), but it cannot be read. Fix it, or give the state folder with --state-dir DIR.");
            throw new CommandFailed(1);
        }
        term.diagnostics(lookup.diagnostics());
        return StateHome.of(null, lookup.backend(), dir);
    }

    private static String shown(Path dir) {
        String s = dir.toString();
        return s.isEmpty() ? "." : s;
    }
}
