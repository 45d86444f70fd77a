package dev.flowform.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * When each task instance of a connector ran, read from the real Connect workers' logs: Kafka Connect's
 * {@code Worker} logs "Creating task {@code <connector>-<n>}" when it starts one and "Stopping task ..." when it stops
 * it (at INFO, which the workers log for that class), each line with the wall-clock time the test's own clock shares.
 *
 * @param instances every task instance found, in log order per worker
 */
record TaskLifetimes(List<Instance> instances) {

    private static final Pattern LINE = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) .*(Creating|Stopping) task (\\S+)-(\\d+)$");

    /**
     * One run of one task on one worker.
     *
     * @param worker  the worker log it was found in
     * @param task    {@code <connector>-<n>}
     * @param created when the worker created it
     * @param stopped when the worker began to stop it, or null while it runs
     */
    record Instance(String worker, String task, LocalTime created, LocalTime stopped) {
    }

    /**
     * @param logDir the folder of the worker logs ({@code *.log})
     * @return the task instances the logs show
     */
    static TaskLifetimes read(Path logDir) {
        List<Instance> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(logDir)) {
            for (Path log : files.filter(p -> p.toString().endsWith(".log")).sorted().toList()) {
                Map<String, Instance> open = new HashMap<>();
                for (String line : Files.readAllLines(log)) {
                    Matcher m = LINE.matcher(line.strip());
                    if (!m.matches()) {
                        continue;
                    }
                    LocalTime at = LocalTime.parse(m.group(1));
                    String task = m.group(3) + "-" + m.group(4);
                    Instance running = open.remove(task);
                    if (m.group(2).equals("Creating")) {
                        if (running != null) {
                            out.add(running); // a worker process that died: its instance never logged a stop
                        }
                        open.put(task, new Instance(log.getFileName().toString(), task, at, null));
                    } else if (running != null) {
                        out.add(new Instance(running.worker(), task, running.created(), at));
                    }
                }
                out.addAll(open.values());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new TaskLifetimes(out);
    }

    /**
     * When the last task of a connector that ran when a change began stopped, relative to the moment the change was
     * reported done.
     *
     * @param connector the connector name
     * @param began     when the apply began
     * @param returned  when it returned
     * @return the latest stop of the connector's task instances alive at {@code began}, minus {@code returned} (negative:
     *         before apply returned); a whole day when one of them has not stopped at all; empty when none was alive
     */
    java.util.Optional<Duration> lastOldStop(String connector, LocalTime began, LocalTime returned) {
        Duration latest = null;
        boolean any = false;
        for (Instance i : instances) {
            if (!i.task().startsWith(connector + "-") || !i.task().substring(connector.length() + 1).matches("\\d+")
                    || i.created().isAfter(began) || (i.stopped() != null && i.stopped().isBefore(began))) {
                continue;
            }
            any = true;
            if (i.stopped() == null) {
                return java.util.Optional.of(Duration.ofDays(1));
            }
            Duration d = Duration.between(returned, i.stopped());
            latest = latest == null || d.compareTo(latest) > 0 ? d : latest;
        }
        return any ? java.util.Optional.of(latest) : java.util.Optional.empty();
    }
}
