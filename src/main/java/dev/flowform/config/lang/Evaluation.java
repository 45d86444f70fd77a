package dev.flowform.config.lang;

import dev.flowform.config.syntax.Sink;
import dev.flowform.diag.SourceRange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The values computed on demand while one configuration is evaluated: locals, module outputs and module variables,
 * each computed once. A reference cycle is reported once, naming its members in order at the value it returns to,
 * and every member becomes unknown.
 */
public final class Evaluation {

    /** The attributes of {@code environment}: the selected environment's name and namespace. */
    public static final List<String> ENVIRONMENT_ATTRIBUTES = List.of("name", "namespace");

    /** A value's definition: what the user reads in messages, and where it is written. */
    private record Slot(String address, SourceRange definedAt) {
    }

    private final Sink sink;
    private final String environmentName;
    private final String environmentNamespace;
    private final Map<String, Value> done = new HashMap<>();
    private final List<Slot> stack = new ArrayList<>();
    private final Set<String> inCycle = new java.util.HashSet<>();

    /** Evaluation reporting cycles to {@code sink}, for the selected environment (null: none) and its namespace. */
    public Evaluation(Sink sink, String environmentName, String environmentNamespace) {
        this.sink = sink;
        this.environmentName = environmentName;
        this.environmentNamespace = environmentNamespace;
    }

    /** @return true when an environment was selected, so {@code environment.*} has values */
    public boolean hasEnvironment() {
        return environmentName != null;
    }

    /**
     * @return the value of {@code attribute} (one of {@link #ENVIRONMENT_ATTRIBUTES}) used at {@code at} (a null value
     *         for an unset namespace), or null when no environment is selected
     */
    public Value environment(String attribute, SourceRange at) {
        if (environmentName == null) {
            return null;
        }
        String v = attribute.equals("name") ? environmentName : environmentNamespace;
        return v == null ? new Value.NullValue(at, false) : new Value.StringValue(v, at, false);
    }

    /**
     * Computes a value once.
     *
     * @param address   how the value is named in messages, unique per value, e.g. {@code module.m.local.x}
     * @param definedAt where it is defined (for the cycle error)
     * @param work      computes it; reports its own errors; returns null when it cannot
     * @return the value, or null when unknown (failed, or part of a cycle)
     */
    public Value compute(String address, SourceRange definedAt, Supplier<Value> work) {
        if (done.containsKey(address)) {
            return done.get(address);
        }
        for (int i = 0; i < stack.size(); i++) {
            if (stack.get(i).address().equals(address)) {
                reportCycle(i);
                return null;
            }
        }
        stack.add(new Slot(address, definedAt));
        Value v;
        try {
            v = work.get();
        } finally {
            stack.remove(stack.size() - 1);
        }
        if (inCycle.contains(address)) {
            v = null;
        }
        done.put(address, v);
        return v;
    }

    private void reportCycle(int from) {
        List<String> names = new ArrayList<>();
        boolean reported = false;
        for (int i = from; i < stack.size(); i++) {
            names.add(stack.get(i).address());
            reported |= !inCycle.add(stack.get(i).address());
        }
        if (reported) {
            return;
        }
        Slot first = stack.get(from);
        names.add(first.address());
        sink.error("Reference cycle", "These values refer to each other in a cycle, so none of them can be computed: "
                + String.join(" → ", names) + ". Break the cycle by giving one of them a value that does not depend on "
                + "the others.", first.definedAt());
    }
}
