package dev.flowform.config.lang;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/** Number formatting and conversion shared by expression evaluation and block decoding. */
public final class Numbers {

    private static final Pattern JSON_NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    private static final int MAX_PLAIN_SCALE = 100;
    private static final int MAX_LITERAL = 1000;

    private Numbers() {
    }

    /**
     * Renders a number the way Terraform converts numbers to strings: no trailing zeros, no
     * {@code .0} on whole numbers, plain digits unless the exponent is huge.
     */
    public static String format(BigDecimal value) {
        BigDecimal stripped = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
        if (Math.abs(stripped.scale()) > MAX_PLAIN_SCALE) {
            return stripped.toString().replace("E+", "e").replace("E", "e");
        }
        return stripped.toPlainString();
    }

    /** @return the number a string spells in JSON number syntax, or null */
    public static BigDecimal parse(String s) {
        if (s.length() > MAX_LITERAL || !JSON_NUMBER.matcher(s).matches()) {
            return null;
        }
        try {
            return new BigDecimal(s);
        } catch (NumberFormatException | ArithmeticException e) {
            return null;
        }
    }

    /** @return the value as an exact {@code long}, or null when it is fractional or out of range */
    public static Long exactLong(BigDecimal value) {
        try {
            return value.longValueExact();
        } catch (ArithmeticException e) {
            return null;
        }
    }

    /**
     * @return a plain Java number for raw JSON output: {@code Long} for whole numbers that fit,
     *     {@code java.math.BigInteger} for larger whole numbers, otherwise the {@code BigDecimal}
     */
    public static Number toJava(BigDecimal value) {
        Long asLong = exactLong(value);
        if (asLong != null) {
            return asLong;
        }
        BigDecimal stripped = value.stripTrailingZeros();
        if (stripped.scale() <= 0 && stripped.precision() - stripped.scale() <= MAX_LITERAL) {
            return stripped.toBigIntegerExact();
        }
        return value;
    }
}
