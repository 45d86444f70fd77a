package dev.flowform.cli.view;

import dev.flowform.apply.ApplyListener;
import dev.flowform.cli.Prompter;
import dev.flowform.cli.Terminal;
import dev.flowform.cli.Version;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.render.PlanRenderer;
import dev.flowform.render.Style;
import dev.flowform.state.OutputRecord;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code apply} for people: the plan as {@code flowform plan} renders it, the approval prompt, one line per step
 * event ({@link HumanProgress}; with a live status block, {@link LiveProgress}, when stdout is an interactive
 * colour terminal), then {@code Apply complete!} and the outputs, or what failed and why.
 */
public final class HumanApplyView extends ApplyView {

    private final Clock clock;
    private final boolean live;
    private final int columns;
    private final Function<List<OutputRecord>, String> outputsText;
    private LiveProgress progress;

    /**
     * @param prompter    asks for the approval; an interactive one with colours on selects the live status block
     * @param env         the process environment ({@code COLUMNS}, the terminal width; 100 when unset)
     * @param outputsText lays the outputs out as {@code name = value} lines
     */
    public HumanApplyView(Terminal term, Prompter prompter, Clock clock, Map<String, String> env,
                          Function<List<OutputRecord>, String> outputsText) {
        super(term, prompter);
        this.clock = clock;
        this.live = prompter.interactive() && term.style() == Style.ANSI;
        this.columns = columns(env);
        this.outputsText = outputsText;
    }

    private static int columns(Map<String, String> env) {
        try {
            return Integer.parseInt(env.getOrDefault("COLUMNS", "100"));
        } catch (NumberFormatException e) {
            return 100;
        }
    }

    @Override
    public void planned(Plan plan) {
        term.print(PlanRenderer.render(PlanCodec.decode(PlanCodec.toJson(plan, Version.get(), PlanCodec.MASK)), term.style()));
    }

    @Override
    public synchronized ApplyListener applying(Plan plan) {
        term.println("");
        if (live) {
            progress = new LiveProgress(term, clock, columns);
            return progress;
        }
        return new HumanProgress(term);
    }

    @Override
    public synchronized void applied() {
        if (progress != null) {
            progress.close();
            progress = null;
        }
    }

    @Override
    public void complete(Plan plan, boolean refreshOnly, String detail) {
        term.println("");
        term.println(term.style().green(term.style().bold(COMPLETE)) + " " + detail);
    }

    @Override
    public void outputs(List<OutputRecord> outputs) {
        if (outputs.isEmpty()) {
            return;
        }
        term.println("");
        term.println(term.style().green(term.style().bold("Outputs:")));
        term.println("");
        term.print(outputsText.apply(outputs));
    }

    /** Starts the note on a line of its own: the interrupt may come while a line is being written (the ^C). */
    @Override
    public void interruptReceived() {
        term.errorLine("");
        super.interruptReceived();
    }

    @Override
    protected void gap() {
        term.println("");
    }
}
