package dev.flowform.run;

import dev.flowform.apply.Journal;
import dev.flowform.config.OutputValue;
import dev.flowform.state.OutputRecord;
import dev.flowform.state.StateStore;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * How an apply writes to the state beyond the store's own calls, supplied by the command: the step journal of a
 * run (which a test can decorate, e.g. to fail at a chosen step), how a live object is made fit for a resource
 * snapshot, and how the configuration's outputs become state records.
 *
 * @param journal   opens the journal of one run
 * @param snapshots makes a live object fit for the state's resource snapshots
 * @param outputs   the configuration's outputs as the state stores them
 */
public record StateWriters(JournalFactory journal, SnapshotScrubber snapshots,
                           Function<List<OutputValue>, List<OutputRecord>> outputs) {

    /** Opens the {@link Journal} of one apply run. */
    @FunctionalInterface
    public interface JournalFactory {
        /**
         * @param state   the environment's state
         * @param runId   the run being journaled
         * @param version flowform's version, recorded with each intent
         * @param redact  removes secret values from free text before it is stored
         * @return the journal
         */
        Journal open(StateStore state, long runId, String version, UnaryOperator<String> redact);
    }

    /** Prepares a live object for a resource snapshot: volatile metadata dropped, secrets hashed. */
    @FunctionalInterface
    public interface SnapshotScrubber {
        /**
         * @param raw     the live object as JSON-like maps
         * @param hash    the state's secret hasher
         * @param secrets secret strings known to this run
         * @return the object as the state stores it
         */
        Map<String, Object> secretFree(Map<String, Object> raw, UnaryOperator<String> hash, Set<String> secrets);
    }
}
