package dev.flowform.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Collects the results: a JSON-ready tree for {@code results.json} and markdown sections for {@code results.md}. */
public final class Report {

    private final Map<String, Object> root = new LinkedHashMap<>();
    private final List<String> markdown = new ArrayList<>();

    /** @return the JSON-ready tree (insertion-ordered) */
    public Map<String, Object> json() {
        return root;
    }

    /**
     * @param key   top-level key
     * @param value JSON-ready value
     */
    public void put(String key, Object value) {
        root.put(key, value);
    }

    /** @param text markdown to append (a heading, a table, a paragraph) */
    public void md(String text) {
        markdown.add(text);
    }

    /** @return the markdown document */
    public String markdown() {
        return String.join("\n", markdown) + "\n";
    }

    /**
     * @param header column titles
     * @param rows   cells
     * @return a markdown table
     */
    public static String table(List<String> header, List<List<String>> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", header)).append(" |\n");
        sb.append("|").append("---|".repeat(header.size())).append("\n");
        for (List<String> r : rows) {
            sb.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        return sb.toString();
    }

    /**
     * @param met    whether the target is met
     * @param figure the measured figure
     * @return {@code met (figure)} or {@code MISSED (figure)}
     */
    public static String verdict(boolean met, String figure) {
        return (met ? "met" : "**MISSED**") + " (" + figure + ")";
    }
}
