package dev.flowform.cli;

import dev.flowform.apply.Journal;
import dev.flowform.run.RunContext;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What the commands take from the process, gathered so tests can substitute it.
 *
 * @param env              environment variables
 * @param simSettings      simulated-operator timings for embedded clusters, or null for the environment's and the demo's
 * @param progressInterval longest silence between progress lines while waiting (10 s by default)
 * @param attachedCluster  an embedded cluster this process already runs ({@code prove}), used instead of starting one
 *                         and left running; null otherwise
 * @param journalDecorator wraps the step journal of every apply run (a fault-injection seam); null means identity
 */
public record CliContext(Clock clock, Prompter prompter, Map<String, String> env, SimSettings simSettings,
                         Duration progressInterval, EmbeddedCluster attachedCluster,
                         UnaryOperator<Journal> journalDecorator) {

    /** Replaces a null {@code journalDecorator} with the identity. */
    public CliContext {
        journalDecorator = journalDecorator == null ? UnaryOperator.identity() : journalDecorator;
    }

    /** Without a journal decorator; the components are the record's. */
    public CliContext(Clock clock, Prompter prompter, Map<String, String> env, SimSettings simSettings,
                      Duration progressInterval, EmbeddedCluster attachedCluster) {
        this(clock, prompter, env, simSettings, progressInterval, attachedCluster, null);
    }

    /** Without an attached cluster; the components are the record's. */
    public CliContext(Clock clock, Prompter prompter, Map<String, String> env, SimSettings simSettings,
                      Duration progressInterval) {
        this(clock, prompter, env, simSettings, progressInterval, null, null);
    }

    /** @return this context with the embedded {@code cluster} attached */
    public CliContext withAttachedCluster(EmbeddedCluster cluster) {
        return new CliContext(clock, prompter, env, simSettings, progressInterval, cluster, journalDecorator);
    }

    /** @return this context with {@code decorator} wrapping each apply run's step journal */
    public CliContext withJournalDecorator(UnaryOperator<Journal> decorator) {
        return new CliContext(clock, prompter, env, simSettings, progressInterval, attachedCluster, decorator);
    }

    /** @return what the run layer's operations take from this context */
    public RunContext run() {
        return new RunContext(clock, env, simSettings, progressInterval, attachedCluster);
    }

    /** @return the real process context */
    public static CliContext system() {
        return new CliContext(Clock.systemUTC(), Prompter.system(), System.getenv(), null, Duration.ofSeconds(10));
    }
}
