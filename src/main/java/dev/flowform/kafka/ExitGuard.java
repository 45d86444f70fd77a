package dev.flowform.kafka;

import org.apache.kafka.common.utils.Exit;

/**
 * Keeps Kafka code running inside flowform's JVM from ending it: Kafka calls {@code Exit.exit} /
 * {@code Exit.halt} on fatal errors (a broker that cannot start, {@code ConnectDistributed} failing), which
 * would otherwise take the whole process, state database included, down without a word. Here they become
 * exceptions in the thread that called them.
 */
final class ExitGuard {
    private static volatile boolean installed;

    private ExitGuard() {
    }

    /** Installs the guard once per JVM. */
    static synchronized void install() {
        if (installed) {
            return;
        }
        Exit.setExitProcedure((code, msg) -> {
            throw new IllegalStateException("Kafka asked to exit with status " + code + (msg == null ? "" : ": " + msg));
        });
        Exit.setHaltProcedure((code, msg) -> {
            throw new IllegalStateException("Kafka asked to halt with status " + code + (msg == null ? "" : ": " + msg));
        });
        installed = true;
    }
}
