package dev.flowform.render;

/**
 * Optional terminal colouring. {@link #PLAIN} returns text unchanged; {@link #ANSI} wraps it in
 * ANSI escape codes. Chosen by the CLI ({@code --no-color}, terminal detection).
 */
public enum Style {
    /** No colour. */
    PLAIN,
    /** ANSI colour codes. */
    ANSI;

    /** @return {@code s} in green (creations) */
    public String green(String s) {
        return wrap("32", s);
    }

    /** @return {@code s} in yellow (updates, warnings) */
    public String yellow(String s) {
        return wrap("33", s);
    }

    /** @return {@code s} in red (deletions, errors) */
    public String red(String s) {
        return wrap("31", s);
    }

    /** @return {@code s} in bold */
    public String bold(String s) {
        return wrap("1", s);
    }

    /** @return {@code s} dimmed (comments) */
    public String dim(String s) {
        return wrap("2", s);
    }

    private String wrap(String code, String s) {
        return this == ANSI ? "\u001b[" + code + "m" + s + "\u001b[0m" : s;
    }
}
