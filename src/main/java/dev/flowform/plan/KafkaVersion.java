package dev.flowform.plan;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kafka version a KafkaConnect runs, from its {@code spec.version}: Apache releases such as
 * {@code 3.9.0} and Cloudera Streams Messaging builds such as {@code 3.9.0.1.4} (Kafka 3.9.0, CSM
 * Operator 1.4), where only the first three numbers are the Kafka version; {@code patch} is 0 when not given,
 * {@code text} the version as written.
 */
public record KafkaVersion(int major, int minor, int patch, String text) implements Comparable<KafkaVersion> {

    private static final Pattern LEADING = Pattern.compile("^\\s*(\\d+)\\.(\\d+)(?:\\.(\\d+))?");

    /** @return the version of a {@code spec.version}, or empty when null or not starting {@code <major>.<minor>} */
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
