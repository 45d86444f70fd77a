package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class TolerantWatchListenersTest {

    @Test
    void a_closing_watch_does_not_keep_the_event_from_the_watches_after_it() {
        TolerantWatchListeners<String> set = new TolerantWatchListeners<>();
        set.add("closing");
        set.add("operator");
        List<String> delivered = new ArrayList<>();

        set.forEach(l -> {
            if (l.equals("closing")) {
                throw new RejectedExecutionException("executor shut down");
            }
            delivered.add(l);
        });

        assertThat(delivered).containsExactly("operator");
    }

    @Test
    void it_is_installed_in_the_mock_dispatcher() throws ReflectiveOperationException {
        KubernetesCrudDispatcher dispatcher = new IndexedCrudDispatcher();

        TolerantWatchListeners.install(dispatcher);

        Field listeners = KubernetesCrudDispatcher.class.getDeclaredField("watchEventListeners");
        listeners.setAccessible(true);
        assertThat(listeners.get(dispatcher)).isInstanceOf(TolerantWatchListeners.class);
    }
}
