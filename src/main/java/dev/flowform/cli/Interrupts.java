package dev.flowform.cli;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Handles Ctrl-C (SIGINT) and SIGTERM while an apply runs, as Terraform does: the first asks for a graceful stop
 * (exit 130 or 143 once the step in flight is journaled and the lock released), a second ends the process at once,
 * still releasing the lock. Signals are caught through {@code sun.misc.Signal} (by reflection) rather than a shutdown
 * hook, which would run beside H2's own hook closing the database; without it the JVM's default stays.
 */
final class Interrupts implements AutoCloseable {

    /** Reacts to a signal; {@code count} is 1 for the first signal, 2 for the second, ... */
    @FunctionalInterface
    interface Handler {
        /** Called with {@code INT} or {@code TERM} and how many signals arrived so far, this one included. */
        void onSignal(String signal, int count);
    }

    private final List<Object[]> previous = new ArrayList<>();
    private final AtomicInteger count = new AtomicInteger();

    private Interrupts() {
    }

    /**
     * Installs {@code handler}, called on a JVM signal thread, for SIGINT and SIGTERM until {@link #close()}.
     *
     * @return the installation; close it to restore the previous handlers
     */
    static Interrupts install(Handler handler) {
        Interrupts i = new Interrupts();
        for (String name : List.of("INT", "TERM")) {
            i.handle(name, handler);
        }
        return i;
    }

    /** @return the conventional exit code after {@code signal}: 130 for INT, 143 for TERM */
    static int exitCode(String signal) {
        return "TERM".equals(signal) ? 143 : 130;
    }

    private void handle(String name, Handler handler) {
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Object signal = signalClass.getConstructor(String.class).newInstance(name);
            InvocationHandler ih = (Object proxy, Method method, Object[] args) -> {
                switch (method.getName()) {
                    case "handle" -> handler.onSignal(name, count.incrementAndGet());
                    case "hashCode" -> {
                        return System.identityHashCode(proxy);
                    }
                    case "equals" -> {
                        return proxy == args[0];
                    }
                    case "toString" -> {
                        return "flowform " + name + " handler";
                    }
                    default -> {
                        return null;
                    }
                }
                return null;
            };
            Object proxy = Proxy.newProxyInstance(Interrupts.class.getClassLoader(), new Class<?>[] {handlerClass}, ih);
            Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
            Object old = handle.invoke(null, signal, proxy);
            previous.add(new Object[] {handle, signal, old});
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // no sun.misc.Signal, or the signal is reserved (e.g. -Xrs): keep the JVM's default behaviour
        }
    }

    /** Restores the handlers that were installed before. */
    @Override
    public void close() {
        for (Object[] p : previous) {
            try {
                ((Method) p[0]).invoke(null, p[1], p[2]);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // best effort: the process is about to finish this command anyway
            }
        }
        previous.clear();
    }
}
