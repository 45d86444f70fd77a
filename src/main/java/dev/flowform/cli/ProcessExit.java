package dev.flowform.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Ends the flowform process quickly once its command is done: HotSpot's exit waits for threads in native code, and
 * Java 17's {@code HttpClient} (used by fabric8) keeps a selector thread in {@code epoll_wait} that cannot be closed,
 * so this interrupts that thread once nothing will send another request (docs/architecture.md, "Start-up").
 */
final class ProcessExit {
    /** The class of the JDK HTTP client's selector thread (OpenJDK 11 to 21). */
    static final String SELECTOR_THREAD = "jdk.internal.net.http.HttpClientImpl$SelectorManager";
    private static final long JOIN_MILLIS = 200;

    private ProcessExit() {
    }

    /**
     * Interrupts the selector thread of every JDK {@code HttpClient} in this JVM and waits for them to end.
     * Call it only when no request will be sent any more: an interrupted client cannot send again.
     *
     * @return how many selector threads were stopped within 200 ms
     */
    static int stopHttpClientSelectors() {
        return stopHttpClientSelectors(Thread.getAllStackTraces().keySet());
    }

    /**
     * Interrupts the JDK {@code HttpClient} selector threads among {@code threads} (others are left alone) and
     * waits up to 200 ms in all for them to end.
     *
     * @return how many selector threads were stopped within 200 ms
     */
    static int stopHttpClientSelectors(Collection<Thread> threads) {
        List<Thread> selectors = new ArrayList<>();
        for (Thread t : threads) {
            if (t.getClass().getName().equals(SELECTOR_THREAD) && t.isAlive()) {
                selectors.add(t);
                t.interrupt();
            }
        }
        long deadline = System.nanoTime() + JOIN_MILLIS * 1_000_000;
        int stopped = 0;
        for (Thread t : selectors) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            try {
                t.join(Math.max(1, left));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            stopped += t.isAlive() ? 0 : 1;
        }
        return stopped;
    }
}
