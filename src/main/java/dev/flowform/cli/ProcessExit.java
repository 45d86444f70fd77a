package dev.flowform.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Ends the flowform process quickly once its command is done.
 *
 * <p>HotSpot's VM exit waits for every thread that is inside native code to block, for at least 300 ms when
 * one does not ({@code VM_Exit::wait_for_threads_in_native_to_block} in OpenJDK 17's {@code vmOperations.cpp}).
 * The selector thread of the JDK's {@code java.net.http.HttpClient}, which fabric8's JDK HTTP client uses,
 * sits in {@code epoll_wait} until its client is garbage collected: Java 17's {@code HttpClient} has no
 * {@code close()} (it came in Java 21), and closing the fabric8 client only shuts down its executor. So every
 * command that had talked to an API server spent 0.3 s in its exit. The selector loop ends when its thread is
 * interrupted (the interrupt wakes the selector, and the loop tests the flag); this class does that, once the
 * command has finished and nothing will send another request.
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
     * @param threads threads to look at
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
