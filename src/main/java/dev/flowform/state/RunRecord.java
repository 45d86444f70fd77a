package dev.flowform.state;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of the run history (without the plan JSON, which {@link RunJournal#planJson(long)} reads).
 *
 * @param id              generated id, increasing with start order; unique in the database, with gaps (several
 *                        environments share a PostgreSQL schema's ids, and H2 skips ahead after a crash)
 * @param number          the run's place in its environment's history, 1 for the first run, without gaps: what
 *                        {@code history} and the messages about a run call it ("Run 3")
 * @param kind            what ran, e.g. {@code apply} or {@code refresh}
 * @param who             {@code user@host} of the process that started it
 * @param flowformVersion version of flowform that started it
 * @param startedAt       when it started
 * @param finishedAt      when it finished or was marked interrupted; null while {@link RunOutcome#RUNNING}
 * @param outcome         how it ended
 * @param summary         one paragraph written when it finished, or null
 */
public record RunRecord(long id, long number, String kind, String who, String flowformVersion, Instant startedAt,
                        Instant finishedAt, RunOutcome outcome, String summary) {

    /** @throws NullPointerException when a required component is null */
    public RunRecord {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(outcome, "outcome");
    }
}
