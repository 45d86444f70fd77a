package dev.flowform.kafka;

import java.util.function.Supplier;

/**
 * Runs in-process Kafka code with this package's class loader as the thread context class loader.
 *
 * <p>Kafka resolves class names from configuration (including the string defaults of its own {@code ConfigDef}s,
 * e.g. {@code sasl.oauthbearer.jwt.retriever.class}) through the context class loader. Run from
 * {@code flowform.jar}, this package and Kafka live in the {@code target/kafka/} loader of
 * {@link dev.flowform.connect.KafkaRuntimeLoader}, while the caller's context loader is the application loader,
 * which sees neither: without the switch the first broker or admin client fails with "Class ... could not be
 * found". Threads Kafka starts inherit the context loader of the thread that starts them.
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
