package dev.flowform.run;

import dev.flowform.state.StateStore;

/**
 * One environment opened for a command: workspace, state (locked for a command that writes), cluster connection,
 * opened in that order so the lock is held before an embedded cluster writes its file, and closed in reverse.
 *
 * @param workspace the configuration
 * @param state     the environment's state database
 * @param opener    what opened (and locked) the state, and releases the lock on close
 * @param cluster   the cluster connection
 * @param secrets   the command's redactor, which knows every secret value met so far
 */
public record Environment(Workspace workspace, StateStore state, StateOpener opener, ClusterConnection cluster,
                          Secrets secrets) implements AutoCloseable {

    /**
     * Opens the state of {@code workspace} through {@code opener}, then its cluster. The connection to a kubeconfig's
     * API server, or a read-only command's embedded cluster, starts while the state opens
     * ({@link ClusterConnection#startEarly}).
     *
     * @param workspace the loaded configuration
     * @param opener    how the command opens (and locks) the state
     * @param writes    true when {@code opener} takes the state lock
     * @param ctx       the process context
     * @param secrets   the command's redactor; the cluster's secret values are added to it as they are read
     * @param hooks     where the connection line and errors go
     * @return the open environment; closing it releases the lock
     * @throws OperationFailed after reporting why the cluster cannot be used (nothing stays open)
     * @throws RuntimeException what {@code opener} throws after reporting its own errors
     */
    public static Environment open(Workspace workspace, StateOpener opener, boolean writes, RunContext ctx, Secrets secrets,
                                   RunHooks hooks) {
        ClusterConnection.refuseRealKafka(workspace, ctx, hooks);
        ClusterConnection.Starting<?> early = ClusterConnection.startEarly(workspace, ctx, writes);
        StateStore state;
        try {
            state = workspace.openState(opener);
        } catch (RuntimeException e) {
            if (early != null) {
                early.discard();
            }
            throw e;
        }
        try {
            ClusterConnection cluster = ClusterConnection.open(workspace, ctx, writes, early, secrets, hooks);
            return new Environment(workspace, state, opener, cluster, secrets);
        } catch (RuntimeException e) {
            closeState(state, opener);
            throw ClusterConnection.failed(e, workspace.environment(), hooks);
        }
    }

    /** Closes the cluster connection, then releases the lock, then closes the state. */
    @Override
    public void close() {
        try {
            cluster.close();
        } finally {
            closeState(state, opener);
        }
    }

    private static void closeState(StateStore state, StateOpener opener) {
        try {
            opener.release();
        } finally {
            state.close();
        }
    }
}
