package dev.flowform.kafka;

import java.io.IOException;
import java.io.InputStream;

/**
 * Ends a child JVM when the JVM that launched it is gone: the parent holds the write end of the child's standard input
 * and never writes, so its exit, however it happens, shows as end of file. Without it a Connect worker outlives a
 * killed test JVM and keeps retrying brokers that are gone.
 */
final class ParentWatch {
    /** The exit status of a child halted because its parent is gone. */
    static final int PARENT_GONE = 4;

    private ParentWatch() {
    }

    /**
     * Starts a daemon thread that reads {@code in} until end of file, then halts the JVM (no shutdown hooks: the
     * clusters a graceful stop would talk to lived in the parent) with {@link #PARENT_GONE}.
     *
     * @param in the standard input the parent holds open
     */
    static void start(InputStream in) {
        Thread t = new Thread(() -> {
            try {
                while (in.read() != -1) {
                    // the parent never writes; anything read is ignored
                }
            } catch (IOException e) {
                // a broken pipe means the same as end of file
            }
            Runtime.getRuntime().halt(PARENT_GONE);
        }, "parent-watch");
        t.setDaemon(true);
        t.start();
    }
}
