package dev.flowform.kafka.archfixture;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.sim.connect.SimulatedConnectRuntime;

/** Breaks {@code ArchitectureRules.KAFKA_KNOWS_NO_SIM} (the real adapter reaching into the simulator); never used by the product. */
public final class SimInKafka {

    private SimInKafka() {
    }

    /** @return the simulator's runtime, which the real adapter must not know */
    public static ConnectRuntime borrowsTheSimulator() {
        return new SimulatedConnectRuntime();
    }
}
