package dev.flowform.cli;

import dev.flowform.run.RunContext;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

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
 */
public record CliContext(Clock clock, Prompter prompter, Map<String, String> env, SimSettings simSettings,
                         Duration progressInterval, EmbeddedCluster attachedCluster) {

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
        this(clock, prompter, env, simSettings, progressInterval, null);
    }

    /**
     * @param cluster the embedded cluster to use
     * @return this context with {@code cluster} attached
     */
    public CliContext withAttachedCluster(EmbeddedCluster cluster) {
        return new CliContext(clock, prompter, env, simSettings, progressInterval, cluster);
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
