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
 * @param clock            time source
 * @param prompter         asks for approval
 * @param env              environment variables
 * @param simSettings      simulated-operator timings for embedded clusters, or null to use the
 *                         environment block's values and the demo defaults
 * @param progressInterval longest silence between progress lines while waiting (10 s in production)
 * @param attachedCluster  an embedded cluster this process already runs (with real Kafka behind it, for
 *                         {@code prove}); commands on an embedded environment use it instead of starting one,
 *                         and leave it running; null otherwise
 * @param journalDecorator wraps the step journal of every apply run (identity in production; null means
 *                         identity): a test and fault-injection seam, e.g. a journal that fails after its
 *                         Nth write as a crash at that point would
 */
public record CliContext(Clock clock, Prompter prompter, Map<String, String> env, SimSettings simSettings,
                         Duration progressInterval, EmbeddedCluster attachedCluster,
                         UnaryOperator<Journal> journalDecorator) {

    /** Replaces a null {@code journalDecorator} with the identity. */
    public CliContext {
        journalDecorator = journalDecorator == null ? UnaryOperator.identity() : journalDecorator;
    }

    /**
     * Without a journal decorator.
     *
     * @param clock            see the record
     * @param prompter         see the record
     * @param env              see the record
     * @param simSettings      see the record
     * @param progressInterval see the record
     * @param attachedCluster  see the record
     */
    public CliContext(Clock clock, Prompter prompter, Map<String, String> env, SimSettings simSettings,
                      Duration progressInterval, EmbeddedCluster attachedCluster) {
        this(clock, prompter, env, simSettings, progressInterval, attachedCluster, null);
    }

    /**
     * Without an attached cluster.
     *
     * @param clock            see the record
     * @param prompter         see the record
     * @param env              see the record
     * @param simSettings      see the record
     * @param progressInterval see the record
     */
    public CliContext(Clock clock, Prompter prompter, Map<String, String> env, SimSettings simSettings,
                      Duration progressInterval) {
        this(clock, prompter, env, simSettings, progressInterval, null, null);
    }

    /**
     * @param cluster the embedded cluster to use
     * @return this context with {@code cluster} attached
     */
    public CliContext withAttachedCluster(EmbeddedCluster cluster) {
        return new CliContext(clock, prompter, env, simSettings, progressInterval, cluster, journalDecorator);
    }

    /**
     * @param decorator wraps each apply run's step journal (see the record)
     * @return this context with {@code decorator}
     */
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
