package dev.flowform.config;

import dev.flowform.config.lang.Arguments;
import dev.flowform.config.lang.Evaluator;
import dev.flowform.config.lang.Template;
import dev.flowform.config.syntax.Blocks;
import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.Names;
import dev.flowform.config.syntax.Sink;
import dev.flowform.diag.Suggestions;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Decodes the root folder's {@code backend} block into a {@link StateBackend}: at most one, {@code local} (a literal
 * {@code path}) or {@code pg} ({@code conn_str}, {@code schema_name}); literals only, as Terraform requires, since
 * backend blocks are read before variables (docs/state-backends.md, "Configuration").
 */
final class BackendDecoder {

    /** Backend types other configuration tools know, with why flowform refuses them. */
    private static final Map<String, String> NOT_YET = Map.of(
            "s3", "The \"s3\" backend is not supported.",
            "remote", "The \"remote\" backend is not supported.");

    private static final Blocks.Schema LOCAL = new Blocks.Schema("backend \"local\"", List.of("path"), List.of(), Map.of());

    private static final String SKIP = "flowform creates the schema, its tables and indexes when they are missing and "
            + "has no option to skip that; create them beforehand with a more privileged role if flowform's may not.";

    private static final Blocks.Schema PG = new Blocks.Schema("backend \"pg\"", List.of("conn_str", "schema_name"),
            List.of(), Map.of("skip_schema_creation", SKIP, "skip_table_creation", SKIP, "skip_index_creation", SKIP));

    /**
     * An unquoted PostgreSQL identifier in lower case (PostgreSQL docs, "Identifiers and Key Words", section 4.1.1:
     * a letter or underscore, then letters, digits, underscores or dollar signs; unquoted names fold to lower case),
     * at most 63 characters (NAMEDATALEN - 1).
     */
    private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_$]{0,62}");

    private BackendDecoder() {
    }

    /**
     * @return the backend the root folder's {@code backend} blocks (in file order) declare when its arguments are
     *         valid, else the default under {@code configDir}
     */
    static StateBackend decode(List<Blocks.Block> blocks, Path configDir, Sink sink) {
        StateBackend backend = StateBackend.defaultFor(configDir);
        Blocks.Block first = null;
        for (Blocks.Block b : blocks) {
            if (first != null) {
                sink.error("Duplicate backend block", "A backend block was already declared at " + first.labelRange()
                        + "; a configuration keeps its state in one place, so only one is allowed.", b.labelRange());
                continue;
            }
            first = b;
            StateBackend decoded = switch (b.name()) {
                case StateBackend.LOCAL -> local(b, configDir, sink);
                case StateBackend.PG -> pg(b, sink);
                default -> {
                    unsupported(b, sink);
                    yield null;
                }
            };
            if (decoded != null) {
                backend = decoded;
            }
        }
        return backend;
    }

    private static void unsupported(Blocks.Block b, Sink sink) {
        String known = NOT_YET.getOrDefault(b.name(), "");
        sink.error("Unsupported backend type", "Backend type \"" + Names.abbreviate(b.name()) + "\" is not supported. "
                + (known.isEmpty() ? "" : known + " ") + "The supported backend types are \"local\": "
                + "{\"backend\": {\"local\": {\"path\": \"state\"}}}, a state folder relative to this file, and \"pg\": "
                + "{\"backend\": {\"pg\": {\"schema_name\": \"flowform\"}}}, every environment in one PostgreSQL schema."
                + (known.isEmpty() ? Suggestions.didYouMean(b.name(), List.of(StateBackend.LOCAL, StateBackend.PG)) : ""),
                b.labelRange());
    }

    private static StateBackend.Local local(Blocks.Block b, Path configDir, Sink sink) {
        Blocks.Content content = Blocks.decode(b, LOCAL, sink);
        Arguments args = new Arguments(content, n -> Evaluator.literal(n, "a backend block", sink), sink);
        String text = args.strictString("path", "a folder path");
        if (text == null) {
            if (args.has("path") && !args.unset("path")) {
                return null;
            }
            text = StateBackend.DEFAULT_FOLDER;
        }
        if (text.isBlank()) {
            sink.error("Invalid backend path", "The state folder path is empty; write a folder, e.g. \"state\".",
                    args.valueRange("path"));
            return null;
        }
        Path base = b.file().baseDir() != null ? b.file().baseDir() : configDir;
        try {
            Path p = Path.of(text);
            return new StateBackend.Local((p.isAbsolute() ? p : base.resolve(p)).normalize(), b.labelRange());
        } catch (InvalidPathException e) {
            sink.error("Invalid backend path", "\"" + Names.abbreviate(text) + "\" is not a valid path: " + e.getReason()
                    + ".", args.valueRange("path"));
            return null;
        }
    }

    /**
     * Checks a {@code pg} block's arguments; the connection itself is resolved and opened by the commands.
     *
     * @return the backend as written, or null when an argument is wrong
     */
    private static StateBackend.Pg pg(Blocks.Block b, Sink sink) {
        Blocks.Content content = Blocks.decode(b, PG, sink);
        Arguments args = new Arguments(content, n -> Evaluator.literal(n, "a backend block", sink), sink);
        boolean ok = true;
        String connStr = null;
        ConfigNode.Entry conn = content.attributes().get("conn_str");
        String reference = conn != null && conn.value() instanceof ConfigNode.StringNode s
                ? Template.firstReference(s.value()) : null;
        if (reference != null) {
            sink.error("Variables not allowed", "References such as " + reference + " cannot be used in a backend "
                    + "block: it is read before variables are, and by commands that read none. Leave conn_str out and "
                    + "set FLOWFORM_PG_CONN_STR, or libpq's variables (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, "
                    + "PGSSLMODE), in flowform's environment.", conn.value().range());
            ok = false;
        } else if (args.has("conn_str") && !args.unset("conn_str")) {
            connStr = args.strictString("conn_str", "a PostgreSQL connection string");
            ok = connStr != null && connString(connStr, args, sink);
        }
        String schema = StateBackend.DEFAULT_SCHEMA;
        if (args.has("schema_name") && !args.unset("schema_name")) {
            schema = args.strictString("schema_name", "a PostgreSQL schema name");
            ok &= schema != null && schemaName(schema, args, sink);
        }
        return ok ? new StateBackend.Pg(connStr, schema, b.labelRange()) : null;
    }

    /** Checks a literal connection string: not blank; a password in it draws a warning. */
    private static boolean connString(String connStr, Arguments args, Sink sink) {
        if (connStr.isBlank()) {
            sink.error("Invalid backend connection string", "conn_str is empty. Write a connection string, e.g. "
                    + "\"postgresql://flowform@db.example/state\", or leave conn_str out to take the connection from "
                    + "FLOWFORM_PG_CONN_STR and libpq's PG* variables.", args.valueRange("conn_str"));
            return false;
        }
        if (!StateBackend.Pg.masked(connStr).equals(connStr)) {
            sink.warning("Password in the configuration", "conn_str holds a password, so it is stored wherever this "
                    + "file is (version control, copies, backups). Leave it out and give it in PGPASSWORD or a password "
                    + "file (PGPASSFILE, ~/.pgpass), or give the whole string in FLOWFORM_PG_CONN_STR.",
                    args.valueRange("conn_str"));
        }
        return true;
    }

    private static boolean schemaName(String schema, Arguments args, Sink sink) {
        String problem = !SCHEMA_NAME.matcher(schema).matches()
                ? "must be a lower-case PostgreSQL name of at most 63 characters: a letter or underscore, then letters, "
                + "digits, underscores or dollar signs"
                : schema.startsWith("pg_") ? "must not start with \"pg_\", which PostgreSQL reserves for system schemas"
                : null;
        if (problem != null) {
            sink.error("Invalid backend schema name", "schema_name \"" + Names.abbreviate(schema) + "\" " + problem
                    + ", e.g. \"" + StateBackend.DEFAULT_SCHEMA + "\".", args.valueRange("schema_name"));
            return false;
        }
        return true;
    }
}
