package dev.flowform.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses durations the way Terraform's {@code -lock-timeout} and kubectl's {@code --timeout} do:
 * {@code 500ms}, {@code 30s}, {@code 15m}, {@code 1h}, or combinations such as {@code 1m30s}.
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    /**
     * @param value e.g. {@code 20m}
     * @return the duration
     * @throws CommandLine.TypeConversionException when the text is not a duration
     */
    public static Duration parse(String value) {
        String v = value.trim();
        Matcher m = PART.matcher(v);
        Duration d = Duration.ZERO;
        int pos = 0;
        while (m.find() && m.start() == pos) {
            long n = Long.parseLong(m.group(1));
            d = d.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            });
            pos = m.end();
        }
        if (pos != v.length() || v.isEmpty()) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration (examples: 30s, 15m, 1h30m)");
        }
        return d;
    }
}
