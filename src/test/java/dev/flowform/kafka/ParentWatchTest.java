package dev.flowform.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A child JVM with a {@link ParentWatch} ends when its parent's end of its standard input closes, and not before. */
class ParentWatchTest {

    /** A child that watches its parent and otherwise sleeps for a minute; its shutdown hook takes half a second. */
    public static final class Child {
        public static void main(String[] args) throws InterruptedException {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                System.out.println("stopped gracefully");
                System.out.flush();
            }));
            ParentWatch.start(System.in);
            System.out.println("watching");
            System.out.flush();
            Thread.sleep(60_000);
            System.exit(0);
        }
    }

    @Test
    void aGracefulStopOfAWorkerProcessRunsItsShutdownHooks() throws Exception {
        Process child = start();
        try {
            new WorkerProcess("ns/pod-0", 0, child).stop(false);
            assertThat(child.exitValue()).as("SIGTERM's status, not the watch's").isEqualTo(128 + 15);
            assertThat(new String(child.getInputStream().readAllBytes())).contains("stopped gracefully");
        } finally {
            child.destroyForcibly();
        }
    }

    private static Process start() throws Exception {
        Process child = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), Child.class.getName()))
                .redirectErrorStream(true).start();
        byte[] line = new byte["watching".length()];
        assertThat(child.getInputStream().readNBytes(line, 0, line.length)).isEqualTo(line.length);
        assertThat(new String(line)).isEqualTo("watching");
        return child;
    }

    @Test
    void theChildHaltsOnceItsParentsEndOfTheStandardInputCloses() throws Exception {
        Process child = start();
        try {
            assertThat(child.waitFor(1, TimeUnit.SECONDS)).as("still running while the parent holds the pipe").isFalse();

            child.getOutputStream().close(); // what the operating system does when the parent exits
            assertThat(child.waitFor(20, TimeUnit.SECONDS)).as("ended after end of file").isTrue();
            assertThat(child.exitValue()).isEqualTo(ParentWatch.PARENT_GONE);
        } finally {
            child.destroyForcibly();
        }
    }
}
