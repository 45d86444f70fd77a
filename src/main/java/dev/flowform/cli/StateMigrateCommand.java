package dev.flowform.cli;

import dev.flowform.apply.StopSignal;
import dev.flowform.config.ConfigLoader;
import dev.flowform.config.StateBackend;
import dev.flowform.plan.Json;
import dev.flowform.run.StateHome;
import dev.flowform.run.Workspace;
import dev.flowform.state.StateStore;
import dev.flowform.state.StateTransfer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code flowform state migrate --to-backend TARGET}: copies an environment's whole state to another backend, both
 * locked, as Terraform's {@code init -migrate-state} does, refusing a target of another lineage or a newer serial and
 * checking the copy afterwards. TARGET is an inline backend block or a configuration folder whose backend block is
 * the target (docs/state.md).
 */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Copy the environment's whole state to another backend (Terraform's init -migrate-state).")
public final class StateMigrateCommand extends StateCommand.Subcommand {

    private static final List<String> MEMBERS = List.of("runs", "steps", "resources", "outputs");

    @Option(names = {"--to-backend", "-to-backend"}, paramLabel = "TARGET", required = true,
            description = "The target backend: an inline backend block such as '{\"pg\": {\"schema_name\": \"flowform\"}}' "
                    + "or '{\"local\": {\"path\": \"state\"}}', or a configuration folder whose backend block is the target.")
    String target;

    @Option(names = {"--lock-timeout", "-lock-timeout"}, paramLabel = "DURATION", defaultValue = "0s",
            converter = DurationConverter.class, description = "How long to retry when a state lock is held (default: ${DEFAULT-VALUE}).")
    Duration lockTimeout;

    @Override
    int run(Terminal term, CliContext ctx) {
        String env = CommandState.environment(common, term);
        StateHome to = targetHome(term);
        CommandLock sourceLock = lock(term, ctx, "state migrate (source)");
        CommandLock targetLock = lock(term, ctx, "state migrate (target)");
        try (StateStore source = CommandState.open(common, ctx, term, "state migrate");
             StateStore copy = CommandState.forWriting(to, env, ctx, term, CommandHint.selecting(common, env),
                     "state migrate")) {
            if (source.toString().equals(copy.toString())) {
                term.error("Nothing to migrate", "The target is where the state of environment \"" + env + "\" already is.");
                return 1;
            }
            sourceLock.acquire(source);
            targetLock.acquire(copy);
            try {
                String document = StateTransfer.export(source, Version.get());
                StateTransfer.Imported done = StateTransfer.importInto(copy, document, false);
                verify(term, env, document, StateTransfer.export(copy, Version.get()));
                term.println("Migrated the state of environment \"" + env + "\" to " + to.named() + ": lineage "
                        + done.lineage() + ", serial " + done.serial() + "; " + counts(done.rows()) + ". Verified: the "
                        + "copy has the same lineage, serial and rows. Point the configuration's backend block at the "
                        + "target; flowform plan there should say \"No changes.\".");
                return 0;
            } finally {
                targetLock.release();
                sourceLock.release();
            }
        } catch (StateTransfer.Refused e) {
            term.error("Failed to migrate the state", "The target already holds a state of environment \"" + env
                    + "\" that this one does not follow: " + e.getMessage() + ". Nothing was changed.");
            return 1;
        }
    }

    private CommandLock lock(Terminal term, CliContext ctx, String operation) {
        return new CommandLock(operation, lockTimeout, operation, ctx, term, new StopSignal(), "");
    }

    /** @throws CommandFailed when the copy's lineage, serial or row counts differ from the source's */
    private static void verify(Terminal term, String env, String source, String copy) {
        JsonNode a = Json.MAPPER.readTree(source);
        JsonNode b = Json.MAPPER.readTree(copy);
        StringBuilder differences = new StringBuilder();
        for (String field : List.of("lineage", "serial")) {
            if (!a.path("environment").path(field).equals(b.path("environment").path(field))) {
                differences.append(' ').append(field);
            }
        }
        for (String member : MEMBERS) {
            if (a.path(member).size() != b.path(member).size()) {
                differences.append(' ').append(member);
            }
        }
        if (!differences.isEmpty()) {
            term.error("The migrated state differs", "The copy of environment \"" + env + "\" differs from the source in:"
                    + differences + ". The source is unchanged; do not switch the backend block.");
            throw new CommandFailed(1);
        }
    }

    private static String counts(Map<String, Integer> rows) {
        return rows.get("runs") + " run(s), " + rows.get("steps") + " journaled step(s), " + rows.get("resources")
                + " resource snapshot(s), " + rows.get("outputs") + " output(s)";
    }

    /** @return the target: an inline backend block, or the backend block of a configuration folder */
    private StateHome targetHome(Terminal term) {
        String text = target.strip();
        if (!text.startsWith("{")) {
            Path folder = Path.of(text);
            return CommandState.home(null, folder, term);
        }
        Path scratch = null;
        try {
            scratch = Files.createTempDirectory("flowform-migrate");
            Files.writeString(scratch.resolve("backend.flow.json"), "{\"backend\": " + text + "}");
            ConfigLoader.BackendLookup lookup = new ConfigLoader().backend(scratch);
            if (lookup.backend() == null || lookup.diagnostics().hasErrors()) {
                term.diagnostics(lookup.diagnostics());
                term.error("Invalid target backend", "--to-backend must be a backend block such as {\"pg\": "
                        + "{\"schema_name\": \"flowform\"}} or {\"local\": {\"path\": \"state\"}}, or a configuration folder.");
                throw new CommandFailed(1);
            }
            StateBackend backend = lookup.backend();
            if (backend instanceof StateBackend.Local local && local.stateDir().startsWith(scratch)) {
                // a relative path in an inline block is taken from the working directory, like --state-dir
                Path relative = scratch.relativize(local.stateDir());
                return Workspace.stateHome(relative.toString().isEmpty() ? Path.of(".") : relative, null, common.dir());
            }
            return Workspace.stateHome(null, backend, common.dir());
        } catch (IOException e) {
            term.error("Cannot read the target backend", e.getMessage());
            throw new CommandFailed(1);
        } finally {
            deleteQuietly(scratch);
        }
    }

    private static void deleteQuietly(Path scratch) {
        if (scratch == null) {
            return;
        }
        try {
            Files.deleteIfExists(scratch.resolve("backend.flow.json"));
            Files.deleteIfExists(scratch);
        } catch (IOException ignored) {
            // a temporary folder left behind holds no state
        }
    }
}
