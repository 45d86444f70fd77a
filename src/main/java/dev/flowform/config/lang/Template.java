package dev.flowform.config.lang;

import dev.flowform.diag.Suggestions;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A string value parsed as a template (HCL JSON syntax): {@code ${var.x}}-style references to {@code var},
 * {@code local}, {@code module} and {@code environment}; <code>$${</code> escapes; anything else inside
 * {@code ${...}} (Kafka config-provider placeholders) is plain text (docs/configuration.md, "Expressions").
 *
 * @param parts the literal text and references, in order (adjacent literals merged)
 */
public record Template(List<Part> parts) {

    private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    private static final Pattern ROOT_START = Pattern.compile("^\\s*(var|local|module|environment)\\s*(\\.|$)");
    private static final Pattern PROVIDER = Pattern.compile("^\\s*[A-Za-z0-9_.-]+:");
    private static final Pattern EMBEDDED_REFERENCE = Pattern.compile("(?<![A-Za-z0-9_.-])(var|local|module)\\.[A-Za-z_]");

    /** Copies the parts. */
    public Template {
        parts = List.copyOf(parts);
    }

    /** One piece of a template. */
    public sealed interface Part permits Literal, Reference {
    }

    /** Plain text, escapes already resolved. */
    public record Literal(String text) implements Part {
    }

    /**
     * A reference such as {@code var.name}: its root ({@code var}, {@code local}, {@code module} or
     * {@code environment}), the dotted names after it (at least one), and its text as written, trimmed.
     */
    public record Reference(String root, List<String> names, String text) implements Part {
        /** Copies the names. */
        public Reference {
            names = List.copyOf(names);
        }
    }

    /** A template that could not be parsed: a one-line summary, and what is wrong and how to write it. */
    public record Problem(String summary, String detail) {
    }

    /** The outcome of parsing: the template, or null and the problem. */
    public record Parsed(Template template, Problem problem) {
    }

    /** @return true when the template is exactly one reference, so it yields the referenced value unchanged */
    public boolean isSingleReference() {
        return parts.size() == 1 && parts.get(0) instanceof Reference;
    }

    /** @return true when the template contains at least one reference */
    public boolean hasReferences() {
        return parts.stream().anyMatch(p -> p instanceof Reference);
    }

    /** Parses {@code s} as a template. */
    public static Parsed parse(String s) {
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < s.length()) {
            if (s.startsWith("$${", i)) {
                literal.append("${");
                i += 3;
                continue;
            }
            if (s.startsWith("${", i)) {
                int close = s.indexOf('}', i + 2);
                String content = close < 0 ? s.substring(i + 2) : s.substring(i + 2, close);
                boolean ours = ROOT_START.matcher(content).find();
                boolean provider = !ours && PROVIDER.matcher(content).find();
                if (!ours && !provider && EMBEDDED_REFERENCE.matcher(content).find()) {
                    return problem("Unsupported expression", "The interpolation \"${" + abbreviate(content) + (close < 0 ? "" : "}")
                            + "\" is not supported: only plain references such as ${var.name} may appear inside ${...}; "
                            + "functions and operators are not part of the language. Write $${ for a literal ${.");
                }
                if (!ours) {
                    int end = close < 0 ? s.length() : close + 1;
                    literal.append(s, i, end);
                    i = end;
                    continue;
                }
                if (close < 0) {
                    return problem("Unterminated template interpolation",
                            "The interpolation \"${" + abbreviate(content) + "\" has no closing \"}\".");
                }
                Object reference = reference(content);
                if (reference instanceof Problem p) {
                    return new Parsed(null, p);
                }
                if (literal.length() > 0) {
                    parts.add(new Literal(literal.toString()));
                    literal.setLength(0);
                }
                parts.add((Reference) reference);
                i = close + 1;
                continue;
            }
            literal.append(s.charAt(i));
            i++;
        }
        if (literal.length() > 0 || parts.isEmpty()) {
            parts.add(new Literal(literal.toString()));
        }
        return new Parsed(new Template(parts), null);
    }

    /**
     * Finds the first interpolation in {@code s} that is one of flowform's references (valid or not),
     * for places where only literal values are allowed.
     *
     * @return the interpolation as written, e.g. {@code ${var.x}}, or null when there is none
     */
    public static String firstReference(String s) {
        int i = 0;
        while (i < s.length()) {
            if (s.startsWith("$${", i)) {
                i += 3;
            } else if (s.startsWith("${", i)) {
                int close = s.indexOf('}', i + 2);
                String content = close < 0 ? s.substring(i + 2) : s.substring(i + 2, close);
                boolean ours = ROOT_START.matcher(content).find();
                boolean provider = !ours && PROVIDER.matcher(content).find();
                if (ours || (!provider && EMBEDDED_REFERENCE.matcher(content).find())) {
                    return "${" + abbreviate(content) + (close < 0 ? "" : "}");
                }
                i = close < 0 ? s.length() : close + 1;
            } else {
                i++;
            }
        }
        return null;
    }

    /**
     * Finds an interpolation that passes through verbatim but looks like a misspelt flowform
     * reference, such as {@code ${vars.x}} or {@code ${locl.x}}: its content starts with a dotted
     * name (no {@code :}, so not a config provider) whose root is close to {@code var},
     * {@code local}, {@code module} or {@code environment}.
     *
     * @return the suspicious interpolation as written with the root it is close to, e.g.
     *     {@code ["${vars.x}", "var"]}, or null when there is none
     */
    public static String[] misspeltReference(String s) {
        int i = 0;
        while (i < s.length()) {
            if (s.startsWith("$${", i)) {
                i += 3;
                continue;
            }
            if (!s.startsWith("${", i)) {
                i++;
                continue;
            }
            int close = s.indexOf('}', i + 2);
            String content = close < 0 ? s.substring(i + 2) : s.substring(i + 2, close);
            java.util.regex.Matcher m = MISSPELT_ROOT.matcher(content);
            if (m.find() && !ROOT_START.matcher(content).find()) {
                java.util.Optional<String> root = Suggestions.closest(m.group(1), ROOTS);
                if (root.isPresent()) {
                    return new String[] {"${" + abbreviate(content) + (close < 0 ? "" : "}"), root.get()};
                }
            }
            i = close < 0 ? s.length() : close + 1;
        }
        return null;
    }

    private static final Pattern MISSPELT_ROOT = Pattern.compile("^\\s*([A-Za-z_]+)\\.[A-Za-z_][A-Za-z0-9_.-]*\\s*$");
    private static final List<String> ROOTS = List.of("var", "local", "module", "environment");

    private static Object reference(String content) {
        String text = content.strip();
        String[] pieces = text.split("\\.", -1);
        String root = pieces[0].strip();
        if (pieces.length == 1) {
            return new Problem("Invalid reference", "\"" + abbreviate(text) + "\" must be followed by a name, e.g. ${"
                    + root + ".name}.");
        }
        List<String> names = new ArrayList<>();
        for (int k = 1; k < pieces.length; k++) {
            if (!IDENT.matcher(pieces[k]).matches()) {
                return new Problem("Unsupported expression", "The interpolation \"${" + abbreviate(content)
                        + "}\" is not supported: only plain references such as ${var.name} may appear inside ${...}; "
                        + "functions, operators and indexes are not part of the language.");
            }
            names.add(pieces[k]);
        }
        return new Reference(root, names, text);
    }

    private static Parsed problem(String summary, String detail) {
        return new Parsed(null, new Problem(summary, detail));
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
