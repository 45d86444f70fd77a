package dev.flowform.state;

import dev.flowform.locking.Sleeper;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Asks the process that holds an H2 state file open whether it answers, before H2 is let near the file: H2's own
 * check ({@code FileLock.checkServer}) reads without a time limit, so a stopped holder would make every other command
 * wait for ever, deaf to Ctrl-C. Here the same question is asked with a limit, polled through the {@link Sleeper}; when
 * the holder does not answer, its lock is read from a copy of the file and its process looked up in {@code /proc}
 * (docs/state-backends.md, "A holder that does not answer").
 */
final class H2FileHolder {

    /** How long the holder has to answer: 2 seconds (a running one answers within milliseconds). */
    static final Duration ANSWER_WITHIN = Duration.ofSeconds(2);

    /** Pause between polls of the channel: 20 ms. */
    static final Duration POLL = Duration.ofMillis(20);

    /**
     * H2's session check request ({@code FileLock.checkServer}): protocol versions 17 to 21, no database, no URL,
     * then the key and {@code SessionRemote.SESSION_CHECK_KEY}.
     */
    private static final int MIN_PROTOCOL = 17;
    private static final int MAX_PROTOCOL = 21;
    private static final int SESSION_CHECK_KEY = 14;

    private H2FileHolder() {
    }

    /**
     * Checks that whoever holds {@code <dir>/flowform.mv.db} open answers.
     *
     * @param dir     {@code <stateDir>/<env>}, absolute
     * @param sleeper pauses between polls; interrupting it ends the check
     * @throws HolderNotAnsweringException when the holder does not answer within {@link #ANSWER_WITHIN}
     * @throws InterruptedException        when the sleeper is interrupted
     */
    static void requireAnswering(Path dir, Sleeper sleeper) throws InterruptedException {
        Optional<Server> server = server(dir);
        if (server.isPresent() && !answers(server.get(), sleeper, ANSWER_WITHIN)) {
            throw new HolderNotAnsweringException(dir, server.get(),
                    LocalProcess.listeningOn(server.get().port()).orElse(null), Duration.ZERO);
        }
    }

    /** The auto-server named by a lock file: a loopback address, its port and the session key. */
    record Server(InetAddress address, int port, String key) {
    }

    /** @return the server the lock file names, or empty when there is none on this machine */
    static Optional<Server> server(Path dir) {
        Path lockFile = dir.resolve(StateStore.DATABASE_NAME + ".lock.db");
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(lockFile)) {
            p.load(in);
            String server = p.getProperty("server");
            String key = p.getProperty("id");
            int colon = server == null ? -1 : server.lastIndexOf(':');
            if (colon < 0 || key == null) {
                return Optional.empty();
            }
            if (!InetAddress.getByName(server.substring(0, colon)).isLoopbackAddress()) {
                return Optional.empty(); // another machine's: flowform's servers listen on loopback only
            }
            // H2 writes "localhost"; flowform makes it listen on IPv4 loopback whatever that name resolves to first
            return Optional.of(new Server(InetAddress.getByName(H2Backend.LOOPBACK),
                    Integer.parseInt(server.substring(colon + 1)), key));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // no lock file (nobody holds the file), or one being rewritten: H2 decides
        }
    }

    /**
     * Asks the server and waits up to {@code window} (pauses requested and time passed both count, so a sleeper that
     * does not sleep cannot cut a live server short).
     *
     * @return true when the server replies, closes the connection or refuses it within {@code window}
     * @throws InterruptedException when the sleeper is interrupted
     */
    static boolean answers(Server server, Sleeper sleeper, Duration window) throws InterruptedException {
        long deadline = System.nanoTime() + window.toNanos();
        Duration slept = Duration.ZERO;
        try (SocketChannel channel = SocketChannel.open()) {
            channel.configureBlocking(false);
            boolean connected = channel.connect(new InetSocketAddress(server.address(), server.port()));
            ByteBuffer request = request(server.key());
            ByteBuffer reply = ByteBuffer.allocate(4);
            while (true) {
                connected = connected || channel.finishConnect();
                if (connected && request.hasRemaining()) {
                    channel.write(request);
                }
                if (connected && !request.hasRemaining() && (channel.read(reply) < 0 || !reply.hasRemaining())) {
                    return true;
                }
                if (System.nanoTime() - deadline >= 0 && slept.compareTo(window) >= 0) {
                    return false;
                }
                sleeper.sleep(POLL);
                slept = slept.plus(POLL);
            }
        } catch (IOException e) {
            return true; // refused or reset: nobody serves the file any more, or the server ended the session
        }
    }

    /** @return H2's session check: two ints, two null strings, the key as a string, one int (Transfer's encoding) */
    private static ByteBuffer request(String key) {
        byte[] chars = key.getBytes(StandardCharsets.UTF_16BE);
        ByteBuffer b = ByteBuffer.allocate(4 * 5 + chars.length + 4);
        b.putInt(MIN_PROTOCOL).putInt(MAX_PROTOCOL).putInt(-1).putInt(-1).putInt(key.length()).put(chars)
                .putInt(SESSION_CHECK_KEY);
        return b.flip();
    }

    /**
     * Reads the state lock from a copy of the file as last written (the holder's OS lock keeps H2 from opening the
     * file itself; the copy is read-only and deleted at once).
     *
     * @return the lock, or empty when there is none or the copy cannot be read
     */
    static Optional<LockInfo> lastWrittenLock(Path dir) {
        Path copy = null;
        try {
            copy = Files.createTempDirectory("flowform-held-state");
            String environment = dir.getFileName().toString();
            Path envCopy = Files.createDirectories(copy.resolve(environment));
            Files.copy(H2Backend.databaseFile(dir), H2Backend.databaseFile(envCopy));
            try (StateStore store = StateStore.openReadOnly(copy, environment, Clock.systemUTC())) {
                return store.lockTable().current();
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        } finally {
            deleteQuietly(copy);
        }
    }

    private static void deleteQuietly(Path tree) {
        if (tree == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(tree)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // a temporary folder left behind holds a copy of a state the user can read anyway
        }
    }
}
