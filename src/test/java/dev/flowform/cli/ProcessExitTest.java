package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProcessExitTest {

    @Test
    void a_live_http_clients_selector_thread_is_stopped_and_other_threads_are_left_alone() throws Exception {
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        HttpClient client = HttpClient.newHttpClient();
        Set<Thread> started = new HashSet<>(Thread.getAllStackTraces().keySet());
        started.removeAll(before);
        List<Thread> selectors = started.stream()
                .filter(t -> t.getClass().getName().equals(ProcessExit.SELECTOR_THREAD)).toList();
        assertThat(selectors).as("the JDK starts one selector thread per HttpClient, of the class ProcessExit looks for")
                .hasSize(1);
        Thread bystander = new Thread(() -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        bystander.setDaemon(true);
        bystander.start();

        int stopped = ProcessExit.stopHttpClientSelectors(List.of(selectors.get(0), bystander));

        assertThat(stopped).isEqualTo(1);
        assertThat(selectors.get(0).isAlive()).as("the selector thread ended while its client is still referenced").isFalse();
        assertThat(bystander.isAlive()).as("a thread that is not a selector is not interrupted").isTrue();
        assertThat(client).isNotNull();
        bystander.interrupt();
    }
}
