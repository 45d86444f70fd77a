package dev.flowform.config;

import dev.flowform.diag.SourceRange;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a configuration keeps its environments' state, Terraform's {@code backend} block: {@link Local} (one folder
 * per environment under {@code path}, relative to the declaring file; default {@value #DEFAULT_FOLDER} under the
 * configuration folder) or {@link Pg} (one PostgreSQL schema). {@code --state-dir} overrides both
 * (docs/state-backends.md).
 */
public sealed interface StateBackend permits StateBackend.Local, StateBackend.Pg {

    /** The type of the folder backend. */
    String LOCAL = "local";

    /** The type of the PostgreSQL backend. */
    String PG = "pg";

    /** The state folder, relative to the configuration folder, when no backend block says otherwise. */
    String DEFAULT_FOLDER = "state";

    /** The PostgreSQL schema that holds the state tables when the block names none. */
    String DEFAULT_SCHEMA = "flowform";

    /** @return the backend type, {@value #LOCAL} or {@value #PG} */
    String type();

    /** @return where the block's type label is written, or null for the default */
    SourceRange declaredAt();

    /** @return true when no backend block was declared */
    default boolean isDefault() {
        return declaredAt() == null;
    }

    /**
     * @return the state folder of a {@link Local} backend, absolute and normalised
     * @throws IllegalStateException for a {@link Pg} backend, which has no folder: callers that also serve PostgreSQL
     *                               look at the type first
     */
    Path stateDir();

    /** @return the default backend {@code <configDir>/state}, relative when {@code configDir} is (this class is pure) */
    static Local defaultFor(Path configDir) {
        return new Local(configDir.resolve(DEFAULT_FOLDER).normalize(), null);
    }

    /** The folder backend: its state folder (absolute, normalised), where its block is written (null: the default). */
    record Local(Path stateDir, SourceRange declaredAt) implements StateBackend {

        /** Checks the folder is given. */
        public Local {
            Objects.requireNonNull(stateDir, "stateDir");
        }

        /** @return {@value StateBackend#LOCAL} */
        @Override
        public String type() {
            return LOCAL;
        }
    }

    /**
     * The PostgreSQL backend, as the block writes it.
     *
     * @param connStr    the connection string, in either of libpq's forms, or null when the block gives none (the
     *                   environment then supplies it); may hold a password, which {@link #toString()} masks
     * @param schemaName the schema that holds the state tables of every environment
     * @param declaredAt where the block's type label is written
     */
    record Pg(String connStr, String schemaName, SourceRange declaredAt) implements StateBackend {

        private static final Pattern URI_PASSWORD = Pattern.compile("^(\\s*postgres(?:ql)?://[^:@/?]*:)[^/?]+@",
                Pattern.CASE_INSENSITIVE);
        private static final Pattern QUERY_PASSWORD = Pattern.compile("([?&]password=)[^&]+");
        private static final Pattern KEYWORD_PASSWORD = Pattern.compile("(^|\\s)(password\\s*=\\s*)('(?:\\\\.|[^'])*'?"
                + "|(?:\\\\.|\\S)+)");

        /** Checks the schema and location are given. */
        public Pg {
            Objects.requireNonNull(schemaName, "schemaName");
            Objects.requireNonNull(declaredAt, "declaredAt");
        }

        /** @return {@value StateBackend#PG} */
        @Override
        public String type() {
            return PG;
        }

        /** @throws IllegalStateException always: the state is in PostgreSQL, not in a folder */
        @Override
        public Path stateDir() {
            throw new IllegalStateException("the pg backend declared at " + declaredAt + " keeps its state in PostgreSQL, "
                    + "not in a folder");
        }

        /** @return true when {@link #connStr} holds a password (in the URI's user part, the query or as a keyword) */
        public boolean connStrHasPassword() {
            return connStr != null && !masked(connStr).equals(connStr);
        }

        /**
         * @return the connection string with its password, if any, replaced by {@code ****}: the URI form's
         *         {@code user:password@} and {@code ?password=}, the keyword form's {@code password=...} (quoted or not)
         */
        public static String masked(String connStr) {
            String s = URI_PASSWORD.matcher(connStr).replaceFirst("$1****@");
            s = QUERY_PASSWORD.matcher(s).replaceAll("$1****");
            return KEYWORD_PASSWORD.matcher(s).replaceAll("$1$2****");
        }

        /** @return the record's fields with the connection string's password masked */
        @Override
        public String toString() {
            return "Pg[connStr=" + (connStr == null ? "null" : masked(connStr)) + ", schemaName=" + schemaName
                    + ", declaredAt=" + declaredAt + "]";
        }
    }
}
