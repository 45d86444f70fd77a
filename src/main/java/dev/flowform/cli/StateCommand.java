package dev.flowform.cli;

import dev.flowform.model.SecretKeys;
import dev.flowform.plan.Json;
import dev.flowform.state.ResourceSnapshot;
import dev.flowform.state.StateStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code flowform state list} and {@code flowform state show ADDR}: the managed objects as last
 * applied, from the environment's state database (Terraform's {@code state list/show}). Secret values,
 * which state keeps only as salted hashes, show as {@code (sensitive value)}. Reads only; takes no
 * lock and starts no cluster.
 */
@Command(name = "state", mixinStandardHelpOptions = true,
        description = "Inspect the managed objects recorded in an environment's state.",
        subcommands = {StateCommand.ListCommand.class, StateCommand.ShowCommand.class})
public final class StateCommand implements Runnable {

    @ParentCommand
    FlowformCommand parent;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code flowform state list}: one address per line. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the addresses of the managed objects.")
    public static final class ListCommand implements Callable<Integer> {

        @ParentCommand
        StateCommand state;

        @Spec
        CommandSpec spec;

        @Mixin
        CommonOptions common;

        @Override
        public Integer call() {
            Terminal term = FlowformCommand.terminal(spec, common.noColor);
            try (StateStore store = StateAccess.open(common, state.parent.context(), term)) {
                for (ResourceSnapshot r : store.resources()) {
                    term.println(r.address());
                }
                return 0;
            } catch (CommandFailed e) {
                return e.exitCode();
            }
        }
    }

    /** {@code flowform state show ADDR}: one object as last applied. */
    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show one managed object as last applied.")
    public static final class ShowCommand implements Callable<Integer> {

        @ParentCommand
        StateCommand state;

        @Spec
        CommandSpec spec;

        @Mixin
        CommonOptions common;

        @Parameters(index = "0", paramLabel = "ADDR", description = "Resource address, e.g. kafka_connector.orders-source.")
        String address;

        @Override
        public Integer call() {
            Terminal term = FlowformCommand.terminal(spec, common.noColor);
            try (StateStore store = StateAccess.open(common, state.parent.context(), term)) {
                Optional<ResourceSnapshot> found = store.resource(address);
                if (found.isEmpty()) {
                    List<String> known = new ArrayList<>();
                    store.resources().forEach(r -> known.add(r.address()));
                    term.error("No such resource in the state", "\"" + address + "\" is not in the state of environment \""
                            + store.environmentName() + "\"." + (known.isEmpty() ? " The state holds no resources yet."
                            : " Known addresses: " + String.join(", ", known) + "."));
                    return 1;
                }
                ResourceSnapshot r = found.get();
                term.println("# " + r.address() + ":");
                term.println("# " + r.kind() + " " + r.namespace() + "/" + r.name() + ", saved at serial " + r.updatedSerial()
                        + " (" + r.updatedAt() + ")");
                Object body = Json.MAPPER.readValue(r.bodyJson(), Object.class);
                term.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(masked(body, false)));
                return 0;
            } catch (CommandFailed e) {
                return e.exitCode();
            }
        }
    }

    /** @return {@code value} with the values of sensitive keys and the state's secret hashes masked */
    static Object masked(Object value, boolean sensitive) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), masked(v, SecretKeys.isSensitive(String.valueOf(k)))));
            return out;
        }
        if (value instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(v -> out.add(masked(v, false)));
            return out;
        }
        if (value != null && (sensitive || String.valueOf(value).startsWith("sha256:"))) {
            return SecretKeys.MASK;
        }
        return value;
    }
}
