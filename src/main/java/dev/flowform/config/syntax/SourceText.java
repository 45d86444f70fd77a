package dev.flowform.config.syntax;

import dev.flowform.diag.SourcePos;
import dev.flowform.diag.SourceRange;
import java.util.Arrays;
import java.util.Objects;

/**
 * The decoded text of one configuration file, with the index needed to turn character offsets into
 * 1-based {@code line:column} positions.
 *
 * <p>Lines end at {@code \n}, {@code \r\n} or a lone {@code \r} (the JSON whitespace characters
 * that break lines). Columns count Unicode code points, so an emoji or an accented letter is one
 * column wide, the way editors show it. Immutable and thread-safe.
 */
public final class SourceText {

    private final String filename;
    private final String text;
    private final int[] lineStarts;
    private final boolean surrogates;

    /** Indexes {@code text}, a whole decoded file that diagnostics name {@code filename}. */
    public SourceText(String filename, String text) {
        this.filename = Objects.requireNonNull(filename, "filename");
        this.text = Objects.requireNonNull(text, "text");
        int[] starts = new int[16];
        int count = 0;
        starts[count++] = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean lineBreak = c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'));
            if (lineBreak) {
                if (count == starts.length) {
                    starts = Arrays.copyOf(starts, count * 2);
                }
                starts[count++] = i + 1;
            }
        }
        this.lineStarts = Arrays.copyOf(starts, count);
        boolean found = false;
        for (int i = 0; i < text.length() && !found; i++) {
            found = Character.isSurrogate(text.charAt(i));
        }
        this.surrogates = found;
    }

    /** @return the file name diagnostics show */
    public String filename() {
        return filename;
    }

    /** @return the decoded file content */
    public String text() {
        return text;
    }

    /**
     * Converts a character offset into a position.
     *
     * @param offset a UTF-16 offset into {@link #text()}; clamped to the text
     * @return the 1-based line and 1-based column (in code points) of that offset
     */
    public SourcePos pos(long offset) {
        int off = (int) Math.max(0, Math.min(offset, text.length()));
        int idx = Arrays.binarySearch(lineStarts, off);
        int line = idx >= 0 ? idx : -idx - 2;
        int column = (surrogates ? text.codePointCount(lineStarts[line], off) : off - lineStarts[line]) + 1;
        return new SourcePos(line + 1, column);
    }

    /** @return the range in this file from offset {@code start} (inclusive) to {@code end} (exclusive) */
    public SourceRange range(long start, long end) {
        return new SourceRange(filename, pos(start), pos(Math.max(start, end)));
    }

    /** @return a zero-width range at {@code offset}, a UTF-16 offset into {@link #text()} */
    public SourceRange point(long offset) {
        SourcePos p = pos(offset);
        return new SourceRange(filename, p, p);
    }
}
