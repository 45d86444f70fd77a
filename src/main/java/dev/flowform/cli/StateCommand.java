package dev.flowform.cli;

import dev.flowform.model.SecretKeys;
import dev.flowform.plan.Json;
import dev.flowform.run.StateHome;
import dev.flowform.state.LockInfo;
import dev.flowform.state.ResourceSnapshot;
import dev.flowform.state.StateBackups;
import dev.flowform.state.StateFiles;
import dev.flowform.state.StateStore;
import dev.flowform.state.StateTransfer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.ToIntFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code flowform state list|show|pull|push|restore} (Terraform's {@code state}): the managed objects as last applied,
 * secrets as {@code (sensitive value)}; {@code pull} prints the whole state as JSON, {@code push FILE} replaces it
 * under the lock after a backup, {@code restore} puts a backup back (docs/state.md).
 */
@Command(name = "state", mixinStandardHelpOptions = true,
        description = "Inspect, move and restore an environment's state.",
        subcommands = {StateCommand.ListCommand.class, StateCommand.ShowCommand.class, StateCommand.PullCommand.class,
                StateCommand.PushCommand.class, StateCommand.RestoreCommand.class, StateMigrateCommand.class})
public final class StateCommand implements Runnable {

    @ParentCommand
    FlowformCommand parent;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** What every {@code state} subcommand shares: its options, its terminal, and opening the state to read it. */
    abstract static class Subcommand implements Callable<Integer> {

        @ParentCommand
        StateCommand state;

        @Spec
        CommandSpec spec;

        @Mixin
        CommonOptions common;

        /** Runs the subcommand; a {@link CommandFailed} (already printed) becomes its exit code. */
        @Override
        public final Integer call() {
            Terminal term = FlowformCommand.terminal(spec, common.noColor);
            try {
                return run(term, state.parent.context());
            } catch (CommandFailed e) {
                return e.exitCode();
            }
        }

        /** @return the exit code, after printing to {@code term} */
        abstract int run(Terminal term, CliContext ctx);

        /**
         * @param work what to do with the environment's state, opened for reading (read-only when its files are)
         * @return what {@code work} returned
         * @throws CommandFailed after printing why the state cannot be opened
         */
        int reading(Terminal term, CliContext ctx, ToIntFunction<StateStore> work) {
            try (StateStore store = CommandState.open(common, ctx, term)) {
                return work.applyAsInt(store);
            }
        }
    }

    /** {@code flowform state list}: one address per line. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the addresses of the managed objects.")
    public static final class ListCommand extends Subcommand {

        @Override
        int run(Terminal term, CliContext ctx) {
            return reading(term, ctx, store -> {
                for (ResourceSnapshot r : store.snapshots().all()) {
                    term.println(r.address());
                }
                return 0;
            });
        }
    }

    /** {@code flowform state show ADDR}: one object as last applied. */
    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show one managed object as last applied.")
    public static final class ShowCommand extends Subcommand {

        @Parameters(index = "0", paramLabel = "ADDR", description = "Resource address, e.g. kafka_connector.orders-source.")
        String address;

        @Override
        int run(Terminal term, CliContext ctx) {
            return reading(term, ctx, store -> {
                Optional<ResourceSnapshot> found = store.snapshots().get(address);
                if (found.isEmpty()) {
                    List<String> known = new ArrayList<>();
                    store.snapshots().all().forEach(r -> known.add(r.address()));
                    term.error("No such resource in the state", "\"" + address + "\" is not in the state of environment \""
                            + store.environmentName() + "\"." + (known.isEmpty() ? " The state holds no resources yet."
                            : " Known addresses: " + String.join(", ", known) + "."));
                    return 1;
                }
                ResourceSnapshot r = found.get();
                term.println("# " + r.address() + ":");
                term.println("# " + r.kind() + " " + r.namespace() + "/" + r.name() + ", saved at serial " + r.updatedSerial()
                        + " (" + r.updatedAt() + ")");
                Object body = Json.MAPPER.readValue(r.bodyJson(), Object.class);
                term.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(masked(body, false)));
                return 0;
            });
        }
    }

    /** {@code flowform state pull}: the environment's whole state as one JSON document on stdout (Terraform's). */
    @Command(name = "pull", mixinStandardHelpOptions = true,
            description = "Print the environment's whole state as JSON (secrets stay hashed, as stored).")
    public static final class PullCommand extends Subcommand {

        @Override
        int run(Terminal term, CliContext ctx) {
            return reading(term, ctx, store -> {
                term.print(StateTransfer.export(store, Version.get()));
                return 0;
            });
        }
    }

    /**
     * {@code flowform state push FILE}: replaces the environment's state with a document {@code state pull} printed,
     * under the state lock and after a backup; another lineage or a lower serial is refused unless {@code --force}.
     */
    @Command(name = "push", mixinStandardHelpOptions = true,
            description = "Replace the environment's state with a document printed by \"flowform state pull\".")
    public static final class PushCommand extends Subcommand {

        @Parameters(index = "0", paramLabel = "FILE", description = "The state document (\"-\" for standard input).")
        String file;

        @Option(names = {"--force", "-force"},
                description = "Push even when the document's lineage, serial or environment do not follow the state's.")
        boolean force;

        @Option(names = {"--lock-timeout", "-lock-timeout"}, paramLabel = "DURATION", defaultValue = "0s",
                converter = DurationConverter.class, description = "How long to retry when the state lock is held (default: ${DEFAULT-VALUE}).")
        java.time.Duration lockTimeout;

        @Override
        int run(Terminal term, CliContext ctx) {
            String text;
            try {
                text = "-".equals(file) ? new String(System.in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                        : Files.readString(Path.of(file));
            } catch (java.io.IOException | RuntimeException e) {
                term.error("Cannot read the state document", "Reading " + file + " failed: " + e.getMessage());
                return 1;
            }
            try {
                String env = CommandState.environment(common, term);
                StateHome home = CommandState.home(common.stateDirOption(), common.dir(), term);
                List<String> select = CommandHint.selecting(common, env);
                StringBuilder hint = new StringBuilder();
                select.forEach(a -> hint.append(' ').append(CommandHint.quote(a)));
                CommandLock lock = new CommandLock("state push", lockTimeout, "state push of " + file, ctx, term,
                        new dev.flowform.apply.StopSignal(), hint.toString());
                try (StateStore store = lock.open(() -> CommandState.forWriting(home, env, ctx, term, select, "state push",
                        lock.sleeper()))) {
                    try {
                        // backups are copies of H2 files; a PostgreSQL database is backed up with its own tools
                        if (store.stateRef().serial() > 0 && !home.isPostgres()) {
                            StateBackups.backup(store, home.stateDir(), ctx.clock());
                        }
                        StateTransfer.Imported done = StateTransfer.importInto(store, text, force);
                        term.println("Pushed " + file + " to the state of environment \"" + env + "\": lineage "
                                + done.lineage() + ", serial " + done.serial() + "; " + done.rows().get("runs") + " run(s), "
                                + done.rows().get("steps") + " journaled step(s), " + done.rows().get("resources")
                                + " resource snapshot(s), " + done.rows().get("outputs") + " output(s).");
                        return 0;
                    } finally {
                        lock.release();
                    }
                }
            } catch (StateTransfer.Refused e) {
                term.error("Failed to push the state", "Refusing to replace the state: " + e.getMessage() + ". Nothing was "
                        + "changed. Pull the current state first, or add --force to replace it anyway (the replaced state is "
                        + "backed up first).");
                return 1;
            } catch (IllegalArgumentException e) {
                term.error("Cannot use the state document", file + ": " + e.getMessage());
                return 1;
            } catch (CommandFailed e) {
                return e.exitCode();
            } catch (RuntimeException e) {
                term.error("Failed to push the state", String.valueOf(e.getMessage()) + "\nNothing was changed.");
                return 1;
            }
        }
    }

    /**
     * {@code flowform state restore [BACKUP]}: puts a backup taken before an apply (the newest, or the one named) in
     * place of the environment's database; the replaced file is kept. A state that still opens needs {@code --force}.
     */
    @Command(name = "restore", mixinStandardHelpOptions = true,
            description = "Restore the environment's state database from a backup taken before an apply (default: the newest).")
    public static final class RestoreCommand extends Subcommand {

        @Parameters(index = "0", arity = "0..1", paramLabel = "BACKUP", description = "A backup zip (default: the newest).")
        Path backup;

        @Option(names = {"--force", "-force"}, description = "Restore even though the current database can still be read.")
        boolean force;

        @Override
        int run(Terminal term, CliContext ctx) {
            try {
                String env = CommandState.environment(common, term);
                StateHome home = CommandState.home(common.stateDirOption(), common.dir(), term);
                if (home.isPostgres()) {
                    term.error("No backups of PostgreSQL state", "flowform backs up H2 state files only (before every "
                            + "apply). The state of environment \"" + env + "\" is " + home.shown() + ": restore the "
                            + "database with PostgreSQL's own tools (pg_dump, pg_restore, point-in-time recovery), or "
                            + "push a document saved with flowform state pull (flowform state push FILE).");
                    return 1;
                }
                Path stateDir = home.stateDir();
                Path chosen = chosen(term, stateDir, env);
                refuseToReplace(term, ctx, stateDir, env, chosen);
                Optional<Path> replaced = StateBackups.restore(stateDir, env, chosen, ctx.clock());
                try (StateStore restored = StateStore.open(stateDir, env, ctx.clock())) {
                    // a backup is taken under the apply's lock, so it holds that lock's row: nothing holds it now
                    restored.lockTable().current().ifPresent(l -> restored.lockTable().forceUnlock(l.id()));
                    term.println("Restored the state of environment \"" + env + "\" from " + chosen + ": lineage "
                            + restored.stateRef().lineage() + ", serial " + restored.stateRef().serial() + "."
                            + replaced.map(p -> " The replaced file is kept as " + p + ".").orElse(""));
                }
                return 0;
            } catch (CommandFailed e) {
                return e.exitCode();
            } catch (RuntimeException e) {
                term.error("Failed to restore the state", String.valueOf(e.getMessage()));
                return 1;
            }
        }

        /** @return the backup to restore: the one named, or the newest */
        private Path chosen(Terminal term, Path stateDir, String env) {
            if (backup == null) {
                List<StateBackups.Backup> backups = StateBackups.list(stateDir, env);
                if (backups.isEmpty()) {
                    term.error("No backup to restore", "There is no backup of environment \"" + env + "\" in "
                            + StateBackups.folder(stateDir, env) + " (one is taken before every apply that changes a "
                            + "state).");
                    throw new CommandFailed(1);
                }
                return backups.get(0).file();
            }
            if (!Files.isRegularFile(backup)) {
                term.error("No such backup", backup + " does not exist.");
                throw new CommandFailed(1);
            }
            return backup;
        }

        /** @throws CommandFailed after saying why, when the current state is locked, or can still be read without --force */
        private void refuseToReplace(Terminal term, CliContext ctx, Path stateDir, String env, Path chosen) {
            Path db = StateStore.databaseFile(stateDir, env);
            if (!Files.exists(db)) {
                return;
            }
            String readable = null;
            try (StateStore current = StateStore.open(stateDir, env, ctx.clock())) {
                Optional<LockInfo> lock = current.lockTable().current();
                if (lock.isPresent()) {
                    term.error("The state is locked", "Environment \"" + env + "\" is locked by " + lock.get().who() + " ("
                            + lock.get().operation() + "); nothing was restored. Wait for it to finish.");
                    throw new CommandFailed(1);
                }
                readable = "serial " + current.stateRef().serial();
            } catch (RuntimeException e) {
                if (e instanceof CommandFailed || StateFiles.damage(e).isEmpty()) {
                    throw e;
                }
            }
            if (readable != null && !force) {
                term.error("The state can still be read", db + " opens (" + readable + "); restoring " + chosen
                        + " would replace it. Add --force to restore anyway (the current file is kept next to it).");
                throw new CommandFailed(1);
            }
        }
    }

    /** @return {@code value} with the values of sensitive keys and the state's secret hashes masked */
    static Object masked(Object value, boolean sensitive) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), masked(v, SecretKeys.isSensitive(String.valueOf(k)))));
            return out;
        }
        if (value instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(v -> out.add(masked(v, false)));
            return out;
        }
        if (value != null && (sensitive || String.valueOf(value).startsWith("sha256:"))) {
            return SecretKeys.MASK;
        }
        return value;
    }
}
