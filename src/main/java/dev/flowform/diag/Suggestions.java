package dev.flowform.diag;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/**
 * "Did you mean ...?" hints for misspelt names: the closest candidate within two edits
 * (Levenshtein), otherwise one that the given name is a prefix of, or that is a prefix of it.
 */
public final class Suggestions {

    private static final int MAX_DISTANCE = 2;
    private static final int MIN_PREFIX = 3;

    private Suggestions() {
    }

    /** @return the best candidate for {@code given}, if one is close enough */
    public static Optional<String> closest(String given, Collection<String> candidates) {
        String best = null;
        int bestDistance = MAX_DISTANCE + 1;
        for (String candidate : candidates.stream().sorted().toList()) {
            if (candidate.equals(given)) {
                continue;
            }
            int d = distance(given, candidate, MAX_DISTANCE);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        if (best != null) {
            return Optional.of(best);
        }
        return candidates.stream()
                .filter(c -> !c.equals(given))
                .filter(c -> (given.length() >= MIN_PREFIX && c.startsWith(given))
                        || (c.length() >= MIN_PREFIX && given.startsWith(c)))
                .min(Comparator.comparingInt((String c) -> Math.abs(c.length() - given.length()))
                        .thenComparing(Comparator.naturalOrder()));
    }

    /** @return {@code " Did you mean "x"?"} for the closest candidate, or an empty string */
    public static String didYouMean(String given, Collection<String> candidates) {
        return closest(given, candidates).map(c -> " Did you mean \"" + c + "\"?").orElse("");
    }

    /**
     * Levenshtein distance, giving up early.
     *
     * @return the edit distance, or {@code limit + 1} when it exceeds {@code limit}
     */
    public static int distance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) > limit) {
            return limit + 1;
        }
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            int rowMin = current[0];
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
                rowMin = Math.min(rowMin, current[j]);
            }
            if (rowMin > limit) {
                return limit + 1;
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return Math.min(previous[b.length()], limit + 1);
    }
}
