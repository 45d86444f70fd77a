package dev.flowform.config.syntax;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Naming rules of block labels, shared by every module: identifiers for variables, locals, outputs,
 * modules and environments; Kubernetes names for what becomes a Kubernetes object.
 */
public final class Names {

    /** Variable, local, output, module and environment names. */
    public static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

    /** KafkaConnect and KafkaConnector names (RFC 1123 labels). */
    public static final Pattern KUBERNETES_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    /** Longest Kubernetes name, in characters. */
    public static final int KUBERNETES_NAME_MAX = 63;

    private Names() {
    }

    /** @return true when {@code name} is a valid Kubernetes object name */
    public static boolean isKubernetesName(String name) {
        return KUBERNETES_NAME.matcher(name).matches() && name.length() <= KUBERNETES_NAME_MAX;
    }

    /**
     * @param namePattern {@link #IDENTIFIER} or {@link #KUBERNETES_NAME}
     * @param prefix      the module address prefix ({@code ""} or {@code module.m.}), for messages
     * @return the blocks of one type in one module by name, first declaration winning; reports invalid and repeated
     *         names
     */
    public static Map<String, Blocks.Block> unique(List<Blocks.Block> blocks, Pattern namePattern, String type, String prefix,
                                            Sink sink) {
        Map<String, Blocks.Block> out = new LinkedHashMap<>();
        for (Blocks.Block b : blocks) {
            check(b, namePattern, type, sink);
            Blocks.Block first = out.putIfAbsent(b.name(), b);
            if (first != null) {
                sink.at(prefix + type + "." + b.name()).error("Duplicate " + type + " block", Blocks.article(type) + " " + type
                        + " named \"" + abbreviate(b.name()) + "\" was already declared at " + first.labelRange()
                        + ". Names must be unique.", b.labelRange().equals(first.labelRange()) ? b.body().range() : b.labelRange());
            }
        }
        return out;
    }

    private static void check(Blocks.Block b, Pattern pattern, String type, Sink sink) {
        String name = b.name();
        if (pattern == IDENTIFIER && !IDENTIFIER.matcher(name).matches()) {
            sink.error("Invalid " + type + " name", "\"" + abbreviate(name) + "\" is not a valid " + type + " name: a name must "
                    + "start with a letter or underscore and contain only letters, digits, underscores and dashes.",
                    b.labelRange());
        } else if (pattern == KUBERNETES_NAME && !isKubernetesName(name)) {
            sink.error("Invalid " + type + " name", "\"" + abbreviate(name) + "\" cannot be used as a Kubernetes name: use at "
                    + "most " + KUBERNETES_NAME_MAX + " lower case letters, digits and '-', starting and ending with a letter "
                    + "or digit (" + KUBERNETES_NAME.pattern() + ").", b.labelRange());
        }
    }

    /** @return {@code s} cut to 80 characters for messages */
    public static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
