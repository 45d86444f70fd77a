package dev.flowform.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Summary of repeated measurements: median, min, max, 99th percentile (nearest rank) and count.
 *
 * @param median the median (mean of the two middle values for an even count)
 * @param min    the smallest value
 * @param max    the largest value
 * @param p99    the 99th percentile, nearest-rank
 * @param n      how many values
 */
public record Stats(double median, double min, double max, double p99, int n) {

    /**
     * @param values the measurements; not empty
     * @return their summary
     * @throws IllegalArgumentException when {@code values} is empty
     */
    public static Stats of(List<? extends Number> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        List<Double> sorted = new ArrayList<>();
        values.forEach(v -> sorted.add(v.doubleValue()));
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        int rank = (int) Math.ceil(0.99 * n);
        return new Stats(median, sorted.get(0), sorted.get(n - 1), sorted.get(Math.max(0, rank - 1)), n);
    }

    /** @return the summary as a JSON-ready map */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", round(median));
        m.put("min", round(min));
        m.put("max", round(max));
        m.put("p99", round(p99));
        m.put("n", n);
        return m;
    }

    /**
     * @param digits decimals to show
     * @return {@code median (min–max)}
     */
    public String format(int digits) {
        String f = "%." + digits + "f";
        return String.format(f, median) + " (" + String.format(f, min) + "–" + String.format(f, max) + ")";
    }

    private static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }
}
