package dev.flowform.apply;

import java.time.Duration;

/** Sleeping, injected so retry back-off can be tested without waiting. */
@FunctionalInterface
public interface Sleeper {
    /** Blocks for {@code d}. @throws InterruptedException when interrupted */
    void sleep(Duration d) throws InterruptedException;

    /** The real thing: {@link Thread#sleep(long)}. */
    Sleeper SYSTEM = d -> Thread.sleep(d.toMillis());
}
