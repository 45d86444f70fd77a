package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowform.locking.Sleeper;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The retry {@link StateStore#open} applies while another process is starting H2's auto-server
 * for the same file (seen with three flowform processes opening one environment at once).
 */
class OpenRetryTest {

    private final List<Duration> pauses = new ArrayList<>();
    private final Sleeper recorder = pauses::add;

    @Test
    void retriesWhileAnotherProcessIsOpeningTheFile() {
        AtomicInteger attempts = new AtomicInteger();
        String result = H2Backend.retryWhileBusy(() -> {
            if (attempts.incrementAndGet() <= 3) {
                throw busy(attempts.get() == 2 ? 90020 : 8000);
            }
            return "open";
        }, recorder, "test.mv.db");

        assertThat(result).isEqualTo("open");
        assertThat(attempts).hasValue(4);
        assertThat(pauses).containsExactly(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(200));
    }

    @Test
    void givesUpAfterTheBudgetWithTheLastError() {
        assertThatThrownBy(() -> H2Backend.retryWhileBusy(() -> {
            throw busy(8000);
        }, recorder, "test.mv.db"))
                .isInstanceOf(StateStoreException.class)
                .hasMessageContaining("Lock file recently modified");

        assertThat(pauses).startsWith(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(200),
                Duration.ofMillis(400), Duration.ofMillis(800), Duration.ofSeconds(1), Duration.ofSeconds(1));
        Duration total = pauses.stream().reduce(Duration.ZERO, Duration::plus);
        assertThat(total).isGreaterThanOrEqualTo(H2Backend.OPEN_RETRY_BUDGET)
                .isLessThan(H2Backend.OPEN_RETRY_BUDGET.plus(H2Backend.OPEN_RETRY_MAX_DELAY));
    }

    @Test
    void otherFailuresAreNotRetried() {
        assertThatThrownBy(() -> H2Backend.retryWhileBusy(() -> {
            throw new StateStoreException("disk full", new SQLException("No space left", "HY000", 90028));
        }, recorder, "test.mv.db")).hasMessage("disk full");
        assertThatThrownBy(() -> H2Backend.retryWhileBusy(() -> {
            throw new IllegalStateException("belongs to another environment");
        }, recorder, "test.mv.db")).isInstanceOf(IllegalStateException.class);
        assertThat(pauses).isEmpty();
    }

    @Test
    void anInterruptStopsRetrying() {
        Sleeper interrupted = d -> {
            throw new InterruptedException();
        };
        try {
            assertThatThrownBy(() -> H2Backend.retryWhileBusy(() -> {
                throw busy(8000);
            }, interrupted, "test.mv.db"))
                    .isInstanceOf(StateStoreException.class)
                    .hasMessageContaining("interrupted while waiting to open");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    private static StateStoreException busy(int h2Code) {
        String message = h2Code == 8000 ? "Error opening database: \"Lock file recently modified\"" : "Database may be already in use";
        return new StateStoreException("cannot open the state database test.mv.db: " + message,
                new SQLException(message, h2Code == 8000 ? "08000" : "90020", h2Code));
    }
}
