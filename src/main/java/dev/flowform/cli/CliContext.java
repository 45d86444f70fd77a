package dev.flowform.cli;

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
 */
public record CliContext(Clock clock, Prompter prompter, Map<String, String> env, SimSettings simSettings,
                         Duration progressInterval) {

    /** @return the real process context */
    public static CliContext system() {
        return new CliContext(Clock.systemUTC(), Prompter.system(), System.getenv(), null, Duration.ofSeconds(10));
    }
}
