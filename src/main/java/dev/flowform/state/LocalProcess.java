package dev.flowform.state;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A process on this machine found through {@code /proc} (proc(5)): the one listening on a loopback port, so that a
 * message can name the process holding a state database open. Its command is shown as {@code flowform <sub-command>}
 * only, never other arguments (they may hold secrets). Without {@code /proc} nothing is found.
 *
 * @param pid     the process id
 * @param state   the state letter of {@code /proc/<pid>/stat} ({@code T} stopped, {@code t} traced); {@code ?} when unreadable
 * @param command what it runs, e.g. {@code flowform apply}, or its executable's name (e.g. {@code java})
 */
public record LocalProcess(long pid, char state, String command) {

    private static final Path PROC = Path.of("/proc");
    private static final String LISTEN = "0A";

    /** @return true when the process is stopped by a signal (SIGSTOP, Ctrl-Z) or by a debugger */
    public boolean isStopped() {
        return state == 'T' || state == 't';
    }

    /** @return e.g. {@code process 4242 (flowform apply)} */
    public String describe() {
        return "process " + pid + " (" + command + ")";
    }

    /**
     * @return the process with a socket listening on {@code port}, or empty when none is found (no {@code /proc}, or
     *         the socket belongs to a process this user may not look into)
     */
    static Optional<LocalProcess> listeningOn(int port) {
        List<String> inodes = new ArrayList<>();
        for (String table : List.of("net/tcp", "net/tcp6")) {
            inodes.addAll(listeningInodes(PROC.resolve(table), port));
        }
        if (inodes.isEmpty()) {
            return Optional.empty();
        }
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, p -> isNumber(p.getFileName().toString()))) {
            for (Path process : processes) {
                if (ownsSocket(process, inodes)) {
                    return Optional.of(of(Long.parseLong(process.getFileName().toString())));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc, or it changed while being read: nobody is named
        }
        return Optional.empty();
    }

    /** @return the process {@code pid} as {@code /proc} shows it now */
    static LocalProcess of(long pid) {
        Path dir = PROC.resolve(Long.toString(pid));
        return new LocalProcess(pid, state(dir), command(dir));
    }

    /** @return the socket inodes of the rows of a {@code /proc/net/tcp*} table listening on {@code port} */
    private static List<String> listeningInodes(Path table, int port) {
        List<String> found = new ArrayList<>();
        String hexPort = String.format(Locale.ROOT, ":%04X", port);
        try {
            for (String line : Files.readAllLines(table)) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[1].endsWith(hexPort) && LISTEN.equals(f[3])) {
                    found.add(f[9]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or no such table: nothing found
        }
        return found;
    }

    private static boolean ownsSocket(Path process, List<String> inodes) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(process.resolve("fd"))) {
            for (Path fd : fds) {
                String target = Files.readSymbolicLink(fd).toString();
                if (target.startsWith("socket:[") && inodes.contains(target.substring(8, target.length() - 1))) {
                    return true;
                }
            }
        } catch (IOException | RuntimeException e) {
            // another user's process, or it ended meanwhile
        }
        return false;
    }

    private static char state(Path dir) {
        try {
            String stat = Files.readString(dir.resolve("stat"));
            int end = stat.lastIndexOf(')');
            return end > 0 && end + 2 < stat.length() ? stat.charAt(end + 2) : '?';
        } catch (IOException | RuntimeException e) {
            return '?';
        }
    }

    /** @return {@code flowform} and its sub-command when the command line runs flowform, else the executable's name */
    private static String command(Path dir) {
        List<String> args;
        try {
            args = List.of(Files.readString(dir.resolve("cmdline")).split("\0"));
        } catch (IOException | RuntimeException e) {
            return "unknown command";
        }
        int start = -1;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("dev.flowform.cli.Main")) {
                start = i + 1;
            } else if (args.get(i).equals("-jar") && i + 1 < args.size() && args.get(i + 1).contains("flowform")) {
                start = i + 2;
            }
        }
        if (start < 0) {
            String exe = args.isEmpty() ? "" : Path.of(args.get(0)).getFileName() == null ? "" : Path.of(args.get(0))
                    .getFileName().toString();
            return exe.isEmpty() ? "unknown command" : exe;
        }
        StringBuilder shown = new StringBuilder("flowform");
        for (int i = start; i < args.size() && i < start + 2 && isWord(args.get(i)); i++) {
            shown.append(' ').append(args.get(i));
        }
        return shown.toString();
    }

    /** @return true for a sub-command's name: lower-case letters and dashes only (never an option or a value) */
    private static boolean isWord(String arg) {
        return !arg.isEmpty() && arg.chars().allMatch(c -> (c >= 'a' && c <= 'z') || c == '-') && !arg.startsWith("-");
    }

    private static boolean isNumber(String s) {
        return !s.isEmpty() && s.chars().allMatch(Character::isDigit);
    }
}
