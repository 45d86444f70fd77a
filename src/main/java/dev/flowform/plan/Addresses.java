package dev.flowform.plan;

import java.util.Map;

/** How an address given to a flag ({@code --target}, {@code --transfer-ownership}) names resources. Pure. */
public final class Addresses {

    private Addresses() {
    }

    /**
     * An address {@code target} names a resource {@code owner} when they are equal, when {@code target} is a module
     * path prefix of it, or when {@code owner} is a connector and {@code target} names its flow that way.
     *
     * @param target the address the user gave, e.g. {@code replication_flow.orders} or {@code module.eu}
     * @param owner  a resource address, e.g. {@code kafka_connector.orders-source}
     * @param flowOf address of each connector to the address of its flow
     * @return true when {@code target} names {@code owner}
     */
    public static boolean matches(String target, String owner, Map<String, String> flowOf) {
        if (target.equals(owner) || owner.startsWith(target + ".")) {
            return true;
        }
        String flow = flowOf.get(owner);
        return flow != null && (target.equals(flow) || flow.startsWith(target + "."));
    }
}
