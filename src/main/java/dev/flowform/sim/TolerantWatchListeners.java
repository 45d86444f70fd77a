package dev.flowform.sim;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import java.lang.reflect.Field;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The mock's set of watch listeners, skipping a listener whose watch is closing: the mock (fabric8 8.0.0) would throw
 * {@link RejectedExecutionException} from it, failing a write it had stored and hiding the event from the watches
 * after it. Swapped in through reflection before any watch opens; with other internals a warning is logged.
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
