package dev.flowform.cli.view;

import dev.flowform.apply.ApplyListener;
import dev.flowform.cli.Terminal;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.Step;
import dev.flowform.render.Style;
import dev.flowform.render.Text;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Apply progress for an interactive terminal: {@link HumanProgress}'s permanent lines plus a live block of one line
 * per running step, redrawn every second with ANSI cursor movement (so only for a terminal with colours on).
 */
public final class LiveProgress implements ApplyListener, AutoCloseable {

    private static final String UP_AND_CLEAR = "\u001b[1A\u001b[2K";
    private static final String[] SPINNER = {"|", "/", "-", "\\"};

    private final Terminal term;
    private final HumanProgress lines;
    private final Clock clock;
    private final int width;
    private final Map<Integer, Active> active = new LinkedHashMap<>();
    private final ScheduledExecutorService ticker;
    private int drawn;
    private int tick;

    private static final class Active {
        final Step step;
        final int index;
        final int total;
        final Instant started;
        String detail;

        Active(Step step, int index, int total, Instant started) {
            this.step = step;
            this.index = index;
            this.total = total;
            this.started = started;
            this.detail = step.summary();
        }
    }

    /** A status block on an ANSI {@code term}, {@code columns} characters wide (longer status lines are cut). */
    public LiveProgress(Terminal term, Clock clock, int columns) {
        this.term = term;
        this.lines = new HumanProgress(term);
        this.clock = clock;
        this.width = Math.max(40, columns);
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "flowform-progress");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(this::redraw, 1, 1, TimeUnit.SECONDS);
    }

    @Override
    public synchronized void stepStarted(Step step, int index, int total) {
        erase();
        lines.stepStarted(step, index, total);
        active.put(step.id(), new Active(step, index, total, clock.instant()));
        draw();
    }

    @Override
    public synchronized void stepProgress(Step step, int index, int total, Readiness state, Duration elapsed) {
        Active a = active.get(step.id());
        if (a != null) {
            a.detail = state.detail();
        }
        erase();
        draw();
    }

    @Override
    public synchronized void stepDone(Step step, int index, int total, String detail, Duration took) {
        ended(step, () -> lines.stepDone(step, index, total, detail, took));
    }

    @Override
    public synchronized void stepFailed(Step step, int index, int total, String detail, Duration took) {
        ended(step, () -> lines.stepFailed(step, index, total, detail, took));
    }

    /** Takes a finished step out of the status block and prints its permanent line above the block. */
    private void ended(Step step, Runnable line) {
        erase();
        active.remove(step.id());
        line.run();
        draw();
    }

    @Override
    public synchronized void stepSkipped(Step step, int index, int total, String reason) {
        erase();
        lines.stepSkipped(step, index, total, reason);
        draw();
    }

    private synchronized void redraw() {
        tick++;
        erase();
        draw();
    }

    private void erase() {
        if (drawn > 0) {
            term.print(UP_AND_CLEAR.repeat(drawn));
            drawn = 0;
        }
    }

    private void draw() {
        if (active.isEmpty()) {
            return;
        }
        Style style = term.style();
        StringBuilder sb = new StringBuilder();
        for (Active a : active.values()) {
            String elapsed = Text.elapsed(Duration.between(a.started, clock.instant()));
            String text = SPINNER[tick % SPINNER.length] + " " + a.step.address() + " [" + a.index + "/" + a.total + "] "
                    + a.step.kind() + " " + elapsed + "  " + a.detail;
            if (text.length() > width - 1) {
                text = text.substring(0, width - 4) + "...";
            }
            sb.append(style.dim(text)).append(System.lineSeparator());
        }
        term.print(sb.toString());
        drawn = active.size();
    }

    /** Stops the redraws and removes the status block. */
    @Override
    public synchronized void close() {
        ticker.shutdownNow();
        erase();
    }
}
