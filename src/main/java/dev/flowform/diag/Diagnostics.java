package dev.flowform.diag;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

/**
 * An ordered collection of {@link Diagnostic}s that a stage appends to and returns.
 *
 * <p>Mutable while a stage collects; callers read it through {@link #list()} or {@link #sorted()}.
 * Not thread-safe.
 */
public final class Diagnostics implements Iterable<Diagnostic> {

    /** Errors first by file and position, then sourceless ones in the order found. */
    private static final Comparator<Diagnostic> ORDER = Comparator
            .comparing((Diagnostic d) -> d.range() == null ? 1 : 0)
            .thenComparing(Diagnostic::range, Comparator.nullsLast(Comparator.naturalOrder()));

    private final List<Diagnostic> items = new ArrayList<>();

    /** Appends one diagnostic. @return this, for chaining */
    public Diagnostics add(Diagnostic d) {
        items.add(d);
        return this;
    }

    /** Appends all diagnostics of {@code other}. @return this, for chaining */
    public Diagnostics addAll(Iterable<Diagnostic> other) {
        other.forEach(items::add);
        return this;
    }

    /** @return true when at least one diagnostic is an error */
    public boolean hasErrors() {
        return items.stream().anyMatch(Diagnostic::isError);
    }

    /** @return the number of errors */
    public long errorCount() {
        return items.stream().filter(Diagnostic::isError).count();
    }

    /** @return the number of warnings */
    public long warningCount() {
        return items.size() - errorCount();
    }

    /** @return true when nothing was reported */
    public boolean isEmpty() {
        return items.isEmpty();
    }

    /** @return the diagnostics in the order they were added (unmodifiable) */
    public List<Diagnostic> list() {
        return Collections.unmodifiableList(items);
    }

    /** @return the diagnostics sorted by file, line and column; sourceless ones last, in insertion order */
    public List<Diagnostic> sorted() {
        List<Diagnostic> copy = new ArrayList<>(items);
        copy.sort(ORDER);
        return copy;
    }

    @Override
    public Iterator<Diagnostic> iterator() {
        return list().iterator();
    }

    @Override
    public String toString() {
        return items.toString();
    }
}
