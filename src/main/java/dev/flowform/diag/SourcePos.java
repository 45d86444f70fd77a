package dev.flowform.diag;

/**
 * A position in a source file.
 *
 * @param line   1-based line number
 * @param column 1-based column number (in characters)
 */
public record SourcePos(int line, int column) implements Comparable<SourcePos> {
    @Override
    public int compareTo(SourcePos o) {
        return line != o.line ? Integer.compare(line, o.line) : Integer.compare(column, o.column);
    }

    @Override
    public String toString() {
        return line + ":" + column;
    }
}
