package dev.flowform.kafka;

import java.util.function.Supplier;

/**
 * Runs in-process Kafka code with this package's class loader as the thread's context class loader: Kafka resolves
 * configured class names through it, and from {@code flowform.jar} Kafka lives in
 * {@link dev.flowform.connect.KafkaRuntimeLoader}'s loader, which the caller's context loader does not see.
 */
final class KafkaContext {
    private KafkaContext() {
    }

    static <T> T call(Supplier<T> work) {
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(KafkaContext.class.getClassLoader());
        try {
            return work.get();
        } finally {
            t.setContextClassLoader(before);
        }
    }

    static void run(Runnable work) {
        call(() -> {
            work.run();
            return null;
        });
    }
}
