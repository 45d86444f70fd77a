package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.flowform.state.StateStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * While plan and apply run, every TCP socket this process listens on (H2's auto-server and lock sockets,
 * the embedded cluster's API server) is bound to a loopback address, never to the wildcard address or
 * another interface. Read from {@code /proc/net/tcp} and {@code /proc/net/tcp6} (state {@code 0A}, LISTEN),
 * matched to this process through the socket inodes under {@code /proc/self/fd}; Linux only.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class LoopbackListenersTest {

    @TempDir
    Path tmp;

    @Test
    void plan_and_apply_listen_on_loopback_only() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")) && Files.isDirectory(Path.of("/proc/self/fd")),
                "needs Linux /proc");
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        Path stateDir = tmp.resolve("state");
        Set<Listener> seen = java.util.Collections.synchronizedSet(new LinkedHashSet<>());
        AtomicBoolean running = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (running.get()) {
                seen.addAll(ownListeners());
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "listener-sampler");
        sampler.setDaemon(true);
        Set<Listener> before = ownListeners();
        sampler.start();
        try {
            CliRunner.Result plan = CliRunner.fast().run(CliFiles.args("plan", dir, stateDir));
            assertThat(plan.exitCode()).as("%s", plan).isZero();
            CliRunner.Result apply = CliRunner.fast().run(CliFiles.args("apply", dir, stateDir, "--auto-approve"));
            assertThat(apply.exitCode()).as("%s", apply).isZero();
            // and with the state open for certain while sampling: H2's two sockets (auto-server and file lock)
            try (StateStore state = StateStore.open(stateDir, "demo", Clock.systemUTC())) {
                Set<Listener> open = ownListeners();
                open.removeAll(before);
                assertThat(open).as("listeners while the state is open").hasSizeGreaterThanOrEqualTo(2);
                seen.addAll(open);
            }
        } finally {
            running.set(false);
            sampler.join(5000);
        }
        Set<Listener> opened = new LinkedHashSet<>(seen);
        opened.removeAll(before);
        assertThat(opened).as("listening sockets opened by plan and apply").isNotEmpty()
                .allSatisfy(l -> assertThat(l.loopback()).as("%s is bound to loopback", l).isTrue());
    }

    /** A listening socket: which table it was in, its local address in /proc's hex form, and its inode. */
    record Listener(String table, String localHex, String inode) {
        /** @return true when the local address is 127.0.0.0/8, ::1 or ::ffff:127.x.x.x */
        boolean loopback() {
            String addr = localHex.substring(0, localHex.indexOf(':'));
            if (addr.length() == 8) {
                return firstIpv4Byte(addr) == 127;
            }
            // four 32-bit words, each in host (little-endian) byte order
            if (addr.equals("00000000000000000000000001000000")) {
                return true;
            }
            return addr.startsWith("0000000000000000FFFF0000") && firstIpv4Byte(addr.substring(24)) == 127;
        }

        private static int firstIpv4Byte(String word) {
            return Integer.parseInt(word.substring(6, 8), 16);
        }

        @Override
        public String toString() {
            return table + " " + localHex + " (inode " + inode + ")";
        }
    }

    /** @return the sockets in LISTEN state whose inode is one of this process's file descriptors */
    static Set<Listener> ownListeners() {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<Listener> out = new LinkedHashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines;
            try {
                lines = Files.readAllLines(Path.of(table));
            } catch (IOException e) {
                continue;
            }
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] cols = line.trim().split("\\s+");
                if (cols.length > 9 && "0A".equals(cols[3]) && inodes.contains(cols[9])) {
                    out.add(new Listener(table, cols[1], cols[9]));
                }
            }
        }
        return out;
    }
}
