package dev.flowform.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Collects the results: a JSON-ready tree for {@code results.json} and markdown sections for {@code results.md}. */
public final class Report {

    private final Map<String, Object> root = new LinkedHashMap<>();
    /** Markdown by section number: sections run in any order but print in numbering order. */
    private final java.util.TreeMap<Integer, List<String>> markdown = new java.util.TreeMap<>();
    private int section;

    /** @param number the section that following {@link #md} calls belong to (0: the preamble, 1-6: benchmarks, 9: epilogue) */
    public void section(int number) {
        section = number;
    }

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
        markdown.computeIfAbsent(section, k -> new ArrayList<>()).add(text);
    }

    /** @return the markdown document */
    public String markdown() {
        List<String> all = new ArrayList<>();
        markdown.values().forEach(all::addAll);
        return String.join("\n", all) + "\n";
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
