package dev.flowform.plan;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kafka version a KafkaConnect runs, from its {@code spec.version}: Apache releases such as
 * {@code 3.9.0} and Cloudera Streams Messaging builds such as {@code 3.9.0.1.4} (Kafka 3.9.0, CSM
 * Operator 1.4), where only the first three numbers are the Kafka version.
 *
 * @param major the major version
 * @param minor the minor version
 * @param patch the patch version (0 when not given)
 * @param text  the version as written
 */
public record KafkaVersion(int major, int minor, int patch, String text) implements Comparable<KafkaVersion> {

    private static final Pattern LEADING = Pattern.compile("^\\s*(\\d+)\\.(\\d+)(?:\\.(\\d+))?");

    /**
     * @param text a {@code spec.version} value, e.g. {@code 3.9.0} or {@code 3.9.0.1.4}
     * @return the version, or empty when {@code text} is null or does not start with {@code <major>.<minor>}
     */
    public static Optional<KafkaVersion> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = LEADING.matcher(text);
        if (!m.find()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new KafkaVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    m.group(3) == null ? 0 : Integer.parseInt(m.group(3)), text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** @return true when this version is older than {@code major.minor.0} */
    public boolean isBefore(int otherMajor, int otherMinor) {
        return major < otherMajor || (major == otherMajor && minor < otherMinor);
    }

    @Override
    public int compareTo(KafkaVersion o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        return c == 0 ? Integer.compare(patch, o.patch) : c;
    }

    /** @return {@code major.minor.patch} (the Kafka part of {@link #text()}) */
    public String kafka() {
        return major + "." + minor + "." + patch;
    }
}
