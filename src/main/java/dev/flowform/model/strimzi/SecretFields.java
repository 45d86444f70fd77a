package dev.flowform.model.strimzi;

import dev.flowform.model.SecretKeys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Where the Strimzi resources flowform manages keep credentials (every Kafka {@code config} map, by key:
 * {@link SecretKeys}; every authentication block), and the one walk that masks, hashes, encrypts or reveals them. A
 * Secret reference ({@code secretName}) names where a credential lives and is kept as it is (docs/operations.md,
 * "Secrets"). Pure.
 */
public final class SecretFields {

    /** Paths of configuration maps from the object root; {@code *} is any list element (or selector segment). */
    private static final List<List<String>> CONFIG_MAPS = List.of(
            List.of("spec", "config"),
            List.of("spec", "clusters", "*", "config"),
            List.of("spec", "target", "config"),
            List.of("spec", "mirrors", "*", "source", "config"),
            List.of("spec", "mirrors", "*", "sourceConnector", "config"),
            List.of("spec", "mirrors", "*", "checkpointConnector", "config"),
            List.of("spec", "mirrors", "*", "heartbeatConnector", "config"));

    /** Paths of authentication blocks from the object root. */
    private static final List<List<String>> AUTHENTICATION = List.of(
            List.of("spec", "authentication"),
            List.of("spec", "clusters", "*", "authentication"),
            List.of("spec", "target", "authentication"),
            List.of("spec", "mirrors", "*", "source", "authentication"));

    private SecretFields() {
    }

    /** {@link #encodeAt} for a whole object ({@code apiVersion}, {@code metadata}, {@code spec}, ...). */
    public static Map<String, Object> encode(Map<String, Object> object, Predicate<String> sensitive,
                                             UnaryOperator<String> encode) {
        @SuppressWarnings("unchecked")
        Map<String, Object> out = (Map<String, Object>) encodeAt(List.of(), object, sensitive, encode);
        return out;
    }

    /**
     * Encodes every sensitive value of a piece of an object: the value a field edit writes at {@code path}.
     *
     * @param path      the path of {@code value} from the object root; segments {@code [alias=x]} (selectors) and
     *                  list indexes stand for list elements
     * @param value     a map, list or scalar
     * @param sensitive keys whose values are sensitive beyond {@link SecretKeys}, may be none
     * @param encode    what a sensitive value, as a string, becomes
     * @return a deep copy, sensitive non-null values encoded; a scalar at a sensitive place is encoded itself
     */
    public static Object encodeAt(List<String> path, Object value, Predicate<String> sensitive,
                                  UnaryOperator<String> encode) {
        if (value instanceof Map<?, ?> m) {
            boolean reference = m.containsKey("secretName") && inside(path, AUTHENTICATION);
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), reference && !(v instanceof Map<?, ?>) ? v
                    : encodeAt(plus(path, String.valueOf(k)), v, sensitive, encode)));
            return out;
        }
        if (value instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(encodeAt(plus(path, "*"), x, sensitive, encode)));
            return out;
        }
        return value != null && isSensitive(path, sensitive) ? encode.apply(String.valueOf(value)) : value;
    }

    /**
     * @return true when the leaf at {@code path} is a sensitive key of a configuration map ({@link SecretKeys}, or
     *         {@code sensitive}), or a sensitive key (or a key of the {@code config} map) inside an authentication block
     */
    public static boolean isSensitive(List<String> path, Predicate<String> sensitive) {
        if (path.isEmpty()) {
            return false;
        }
        String key = path.get(path.size() - 1);
        List<String> parent = path.subList(0, path.size() - 1);
        if (matchesAny(parent, CONFIG_MAPS)) {
            return SecretKeys.isSensitive(key) || sensitive.test(key);
        }
        if (!inside(path, AUTHENTICATION)) {
            return false;
        }
        return SecretKeys.isSensitive(key) || parent.contains("config");
    }

    /** @return true when {@code path} lies strictly below one of {@code places} */
    private static boolean inside(List<String> path, List<List<String>> places) {
        return places.stream().anyMatch(p -> path.size() > p.size() && matches(path.subList(0, p.size()), p));
    }

    private static boolean matchesAny(List<String> path, List<List<String>> places) {
        return places.stream().anyMatch(p -> matches(path, p));
    }

    private static boolean matches(List<String> path, List<String> place) {
        if (path.size() != place.size()) {
            return false;
        }
        for (int i = 0; i < path.size(); i++) {
            String want = place.get(i);
            String have = path.get(i);
            boolean element = "*".equals(have) || have.startsWith("[") || have.chars().allMatch(Character::isDigit);
            if ("*".equals(want) ? !element : !want.equals(have)) {
                return false;
            }
        }
        return true;
    }

    private static List<String> plus(List<String> path, String segment) {
        List<String> out = new ArrayList<>(path.size() + 1);
        out.addAll(path);
        out.add(segment);
        return out;
    }
}
