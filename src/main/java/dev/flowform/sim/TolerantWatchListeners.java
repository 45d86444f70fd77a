package dev.flowform.sim;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import java.lang.reflect.Field;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Works around a race in the fabric8 mock API server (8.0.0): a write first stores the object, then
 * sends the watch event to every open watch ({@code KubernetesCrudDispatcher.processEvent}, a
 * {@code forEach} over its listener set). A watch that is being closed has already shut its send
 * executor but is still in the set, so sending to it throws {@link RejectedExecutionException}: the write
 * is answered with an error although it was stored, and the watches after it in the set (the simulated
 * operator's informers, say) never see the event. A real API server does neither. This set skips a closing
 * listener instead, so the other watches get the event and the write succeeds.
 *
 * <p>It replaces the dispatcher's private listener set through reflection, before any watch is opened;
 * when the mock's internals differ (another fabric8 version), it logs a warning and leaves the mock as is.
 */
final class TolerantWatchListeners<T> extends CopyOnWriteArraySet<T> {

    private static final Logger LOG = Logger.getLogger(TolerantWatchListeners.class.getName());
    private static final long serialVersionUID = 1L;

    @Override
    public void forEach(Consumer<? super T> action) {
        for (T listener : this) {
            try {
                action.accept(listener);
            } catch (RejectedExecutionException e) {
                LOG.log(Level.FINE, "skipped a watch that is closing", e);
            }
        }
    }

    /** Installs the set in {@code dispatcher}'s CRUD dispatcher; does nothing (with a warning) when it cannot. */
    static void install(KubernetesCrudDispatcher crudDispatcher) {
        try {
            Field listeners = KubernetesCrudDispatcher.class.getDeclaredField("watchEventListeners");
            listeners.setAccessible(true);
            listeners.set(crudDispatcher, new TolerantWatchListeners<>());
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.WARNING, "could not install the closing-watch workaround in the mock API server", e);
        }
    }
}
