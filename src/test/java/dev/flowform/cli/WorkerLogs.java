package dev.flowform.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Connect worker logs of one {@code flowform prove} run, kept for a test: {@code prove} names its working folder
 * in its output ("logs in ..."); {@link #keep} copies the logs under {@code target/} (the working folder is a temporary
 * one) and {@link #relevant} picks the lines that explain a task that does not run: errors, warnings, zombie fencing,
 * task starts and rebalances, each worker's starts (a restart after a kill shows as a new start).
 */
final class WorkerLogs {
    private static final Pattern LOG_DIR = Pattern.compile("logs in (\\S+?)\\)");
    private static final Pattern RELEVANT = Pattern.compile(
            "ERROR|WARN|[Ff]enc|[Ss]ession key|Starting task|Starting connector|Joined group|leader|SLF4J|"
                    + "Rebalance started|Finished starting|Task threw|Caused by");

    private WorkerLogs() {
    }

    /**
     * Copies the worker logs named in a prove run's output into {@code into} (replacing an earlier copy).
     *
     * @param proveOutput the standard output of {@code flowform prove}
     * @param into        the folder to copy into (created)
     * @return the copied {@code .log} files, sorted; empty when the output names no log folder
     */
    static List<Path> keep(String proveOutput, Path into) {
        Matcher m = LOG_DIR.matcher(proveOutput);
        if (!m.find()) {
            return List.of();
        }
        return keep(Path.of(m.group(1)), into);
    }

    /**
     * Copies the worker logs of a folder into {@code into} (replacing an earlier copy).
     *
     * @param from the workers' log folder
     * @param into the folder to copy into (created)
     * @return the copied {@code .log} files, sorted
     */
    static List<Path> keep(Path from, Path into) {
        try (Stream<Path> files = Files.list(from)) {
            Files.createDirectories(into);
            List<Path> kept = new ArrayList<>();
            for (Path f : files.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
                kept.add(Files.copy(f, into.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING));
            }
            return kept;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the worker logs of " + from, e);
        }
    }

    /**
     * The lines of the logs worth reading when a task did not run, without stack frames.
     *
     * @param logs the log files
     * @return one block per file, headed by its name
     */
    static String relevant(List<Path> logs) {
        StringBuilder b = new StringBuilder();
        for (Path log : logs) {
            b.append("==== ").append(log).append('\n');
            try (Stream<String> lines = Files.lines(log)) {
                lines.filter(l -> !l.startsWith("\tat ") && RELEVANT.matcher(l).find())
                        .forEach(l -> b.append(l.length() > 400 ? l.substring(0, 400) + " ..." : l).append('\n'));
            } catch (IOException | UncheckedIOException e) {
                b.append("(unreadable: ").append(e.getMessage()).append(")\n");
            }
        }
        return b.toString();
    }
}
