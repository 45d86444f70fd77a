package dev.flowform.diag;

import java.util.Comparator;
import java.util.Objects;

/**
 * A span of a configuration file that a diagnostic points at.
 *
 * @param filename the file name as the user should see it (relative to the configuration folder when possible)
 * @param start    first character of the span (inclusive)
 * @param end      position just after the span (exclusive); equal to {@code start} for a point
 */
public record SourceRange(String filename, SourcePos start, SourcePos end) implements Comparable<SourceRange> {

    private static final Comparator<SourceRange> ORDER = Comparator.comparing(SourceRange::filename)
            .thenComparing(SourceRange::start)
            .thenComparing(SourceRange::end);

    public SourceRange {
        Objects.requireNonNull(filename, "filename");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
    }

    /** @return a zero-width range at {@code line:column} of {@code filename} */
    public static SourceRange at(String filename, int line, int column) {
        SourcePos p = new SourcePos(line, column);
        return new SourceRange(filename, p, p);
    }

    @Override
    public int compareTo(SourceRange o) {
        return ORDER.compare(this, o);
    }

    /** @return {@code file:line:col}, the form compilers and editors understand */
    @Override
    public String toString() {
        return filename + ":" + start.line() + ":" + start.column();
    }
}
