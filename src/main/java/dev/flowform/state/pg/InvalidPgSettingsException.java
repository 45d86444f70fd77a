package dev.flowform.state.pg;

/**
 * The settings for the PostgreSQL state backend cannot be used: a connection string that cannot be read, an unknown
 * keyword, a port or SSL mode out of range, a missing user. The message says which setting and how to fix it, and
 * never contains a password.
 */
public final class InvalidPgSettingsException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** @param message what is wrong, without the connection string itself */
    public InvalidPgSettingsException(String message) {
        super(message);
    }
}
