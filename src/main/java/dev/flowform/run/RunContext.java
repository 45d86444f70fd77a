package dev.flowform.run;

import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * What the operations take from the process, injected so tests can substitute it.
 *
 * @param clock            time source
 * @param env              the process environment ({@code KUBECONFIG}, {@value ClusterConnection#SIM_FAST_ENV},
 *                         {@code FLOWFORM_LEASE_SECONDS}, ...)
 * @param simSettings      simulated-operator timings for embedded clusters, or null to use the environment block's
 *                         values and the demo defaults
 * @param progressInterval longest silence between progress events while a step waits (10 s in production)
 * @param attachedCluster  an embedded cluster this process already runs (with real Kafka behind it, for
 *                         {@code prove}): an embedded environment uses it instead of starting one, and leaves it
 *                         running; null otherwise
 */
public record RunContext(Clock clock, Map<String, String> env, SimSettings simSettings, Duration progressInterval,
                         EmbeddedCluster attachedCluster) {
}
