package dev.flowform.state.pg;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a PostgreSQL connection string in either of libpq's forms (keyword/value with quoting and backslash escapes,
 * or a {@code postgresql://} URI, percent-decoded, {@code ssl=true} as {@code sslmode=require}) into keyword/value
 * pairs (PostgreSQL documentation, libpq, "Connection Strings"). Only {@link #KEYWORDS} are accepted; an empty value
 * counts as not given. Messages name the keyword or position, never the string (it may hold a password).
 */
final class ConnStrParser {

    /** The keywords flowform understands, libpq's names. */
    static final List<String> KEYWORDS = List.of("host", "port", "user", "password", "dbname", "sslmode", "sslrootcert",
            "connect_timeout", "application_name");

    private static final List<String> SCHEMES = List.of("postgresql://", "postgres://");

    private ConnStrParser() {
    }

    /**
     * @return the keywords given, in the order first given, with non-empty values
     * @throws InvalidPgSettingsException when the string cannot be read or uses an unknown keyword
     */
    static Map<String, String> parse(String text) {
        String s = text.strip();
        for (String scheme : SCHEMES) {
            if (s.regionMatches(true, 0, scheme, 0, scheme.length())) {
                return uri(s, scheme.length());
            }
        }
        if (s.contains("://")) {
            throw new InvalidPgSettingsException("the connection string is a URI with a scheme other than postgresql:// "
                    + "or postgres://");
        }
        return keywords(s);
    }

    private static Map<String, String> keywords(String s) {
        Map<String, String> out = new LinkedHashMap<>();
        int i = 0;
        int n = s.length();
        while (true) {
            i = skipSpace(s, i);
            if (i >= n) {
                return out;
            }
            int start = i;
            while (i < n && s.charAt(i) != '=' && !Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            String keyword = s.substring(start, i);
            i = skipSpace(s, i);
            if (i >= n || s.charAt(i) != '=') {
                throw new InvalidPgSettingsException("missing \"=\" after the word at character " + (start + 1)
                        + " of the connection string (keyword=value pairs separated by spaces, or a postgresql:// URI)");
            }
            i = skipSpace(s, i + 1);
            StringBuilder value = new StringBuilder();
            if (i < n && s.charAt(i) == '\'') {
                i = quoted(s, i + 1, value, keyword);
            } else {
                while (i < n && !Character.isWhitespace(s.charAt(i))) {
                    if (s.charAt(i) == '\\' && i + 1 < n) {
                        i++;
                    }
                    value.append(s.charAt(i++));
                }
            }
            put(out, keyword, value.toString());
        }
    }

    /** Reads a quoted value from {@code i} (just after the opening quote); returns the index after the closing one. */
    private static int quoted(String s, int i, StringBuilder value, String keyword) {
        int n = s.length();
        while (i < n && s.charAt(i) != '\'') {
            if (s.charAt(i) == '\\' && i + 1 < n) {
                i++;
            }
            value.append(s.charAt(i++));
        }
        if (i >= n) {
            throw new InvalidPgSettingsException("the quoted value of \"" + shortKeyword(keyword)
                    + "\" in the connection string has no closing quote");
        }
        return i + 1;
    }

    private static int skipSpace(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static Map<String, String> uri(String s, int from) {
        Map<String, String> out = new LinkedHashMap<>();
        int end = indexOfAny(s, from, "/?");
        String authority = s.substring(from, end);
        int at = authority.lastIndexOf('@');
        if (at >= 0) {
            String userInfo = authority.substring(0, at);
            int colon = userInfo.indexOf(':');
            put(out, "user", decode(colon < 0 ? userInfo : userInfo.substring(0, colon), "user"));
            if (colon >= 0) {
                put(out, "password", decode(userInfo.substring(colon + 1), "password"));
            }
            authority = authority.substring(at + 1);
        }
        hostAndPort(authority, out);
        int i = end;
        if (i < s.length() && s.charAt(i) == '/') {
            int q = s.indexOf('?', i);
            put(out, "dbname", decode(s.substring(i + 1, q < 0 ? s.length() : q), "dbname"));
            i = q < 0 ? s.length() : q;
        }
        if (i < s.length()) {
            query(s.substring(i + 1), out);
        }
        return out;
    }

    private static void hostAndPort(String hostSpec, Map<String, String> out) {
        if (hostSpec.contains(",")) {
            throw new InvalidPgSettingsException("the connection string names several hosts; flowform connects to one");
        }
        String host = hostSpec;
        String port = null;
        if (hostSpec.startsWith("[")) {
            int close = hostSpec.indexOf(']');
            if (close < 0) {
                throw new InvalidPgSettingsException("the IPv6 host in the connection string has no closing \"]\"");
            }
            host = hostSpec.substring(1, close);
            String rest = hostSpec.substring(close + 1);
            if (!rest.isEmpty() && !rest.startsWith(":")) {
                throw new InvalidPgSettingsException("unexpected text after the IPv6 host in the connection string");
            }
            port = rest.isEmpty() ? null : rest.substring(1);
        } else {
            int colon = hostSpec.lastIndexOf(':');
            if (colon >= 0) {
                host = hostSpec.substring(0, colon);
                port = hostSpec.substring(colon + 1);
            }
        }
        put(out, "host", decode(host, "host"));
        if (port != null) {
            put(out, "port", decode(port, "port"));
        }
    }

    private static void query(String query, Map<String, String> out) {
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw new InvalidPgSettingsException("a query parameter of the connection string has no \"=\"");
            }
            String keyword = decode(pair.substring(0, eq), "query parameter");
            String value = decode(pair.substring(eq + 1), keyword);
            if (keyword.equals("ssl")) {
                if (!value.equals("true")) {
                    throw new InvalidPgSettingsException("the query parameter ssl takes only the value true");
                }
                put(out, "sslmode", "require");
            } else {
                put(out, keyword, value);
            }
        }
    }

    private static void put(Map<String, String> out, String keyword, String value) {
        if (!KEYWORDS.contains(keyword)) {
            throw new InvalidPgSettingsException("the connection string uses \"" + shortKeyword(keyword)
                    + "\", which flowform does not know; it knows " + String.join(", ", KEYWORDS));
        }
        if (value.isEmpty()) {
            out.remove(keyword);
        } else {
            out.put(keyword, value);
        }
    }

    /** Percent-decodes one URI part as UTF-8; {@code what} names the part in errors. */
    private static String decode(String part, String what) {
        if (part.indexOf('%') < 0) {
            return part;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c != '%') {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            int hi = i + 2 < part.length() ? Character.digit(part.charAt(i + 1), 16) : -1;
            int lo = hi < 0 ? -1 : Character.digit(part.charAt(i + 2), 16);
            if (lo < 0) {
                throw new InvalidPgSettingsException("invalid percent-encoding in the " + what
                        + " of the connection string (% must be followed by two hexadecimal digits)");
            }
            bytes.write(hi * 16 + lo);
            i += 2;
        }
        String decoded = bytes.toString(StandardCharsets.UTF_8);
        if (decoded.indexOf('\0') >= 0) {
            throw new InvalidPgSettingsException("the " + what + " of the connection string decodes to a NUL character");
        }
        return decoded;
    }

    private static int indexOfAny(String s, int from, String chars) {
        for (int i = from; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return s.length();
    }

    /**
     * A keyword as a message shows it: only words followed by {@code =} get here, so it is a keyword, not a stray
     * password; cut short all the same.
     */
    private static String shortKeyword(String keyword) {
        return keyword.length() <= 20 ? keyword : keyword.substring(0, 20) + "...";
    }
}
