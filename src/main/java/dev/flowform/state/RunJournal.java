package dev.flowform.state;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The run history of an environment and each run's step journal (tables {@code run} and {@code run_step}): a run is
 * recorded {@link RunOutcome#RUNNING} when it starts; each step's intent is journaled ({@link StepStatus#STARTED})
 * before the step acts and its outcome after, each in its own committed transaction, so a crash leaves a run still
 * RUNNING with at most one open step per chain, which {@link #interruptedRun()} finds (Flyway's schema-history idea,
 * Pulumi's pending operations). Every write adds 1 to the serial. Plain SQL, shared by every backend.
 */
public final class RunJournal {

    /**
     * How the applier's detail of a step that a stop request ended begins (its {@code STOPPED}, which a test compares
     * with this): rows journaled before schema version 4 were told apart by it.
     */
    public static final String STOPPED_DETAIL = "stopped while waiting";

    private static final String RUN_COLUMNS =
            "id, kind, who, flowform_version, started_at, finished_at, outcome, summary";
    /**
     * Condition on {@code run_step} keeping the rows of one environment's runs; binds the environment name. Correlated
     * on the run's primary key, so a lookup by run stays one index probe (an {@code IN} over all the environment's run
     * ids made {@code history} on 10,000 runs ten times slower on H2).
     */
    private static final String OWN_RUN = "EXISTS (SELECT 1 FROM run r WHERE r.id = run_step.run_id AND r.environment = ?)";
    /**
     * This environment's runs, newest first; the environment compared as an expression so the database reads in
     * primary-key order and stops at the limit instead of sorting every run of the environment.
     */
    private static final String NEWEST_FIRST = "CONCAT(environment, '') = ? ORDER BY id DESC";
    private static final String STEP_COLUMNS =
            "id, run_id, step_index, step_id, kind, address, intent_json, status, started_at, finished_at, detail, duration_ms";

    private final StateStore store;

    RunJournal(StateStore store) {
        this.store = store;
    }

    /**
     * Records the start of a run with outcome {@link RunOutcome#RUNNING}. Serial +1.
     *
     * @param kind     what runs, e.g. {@code apply} or {@code refresh}; not blank
     * @param planJson the plan being applied, already free of secrets, or null
     * @param who      {@code user@host} (see {@link LockInfo#localWho()}); not blank
     * @param version  flowform version; not blank
     * @return the run id
     * @throws IllegalArgumentException when a required argument is blank
     * @throws StateStoreException     when the database fails
     */
    public long startRun(String kind, String planJson, String who, String version) {
        Sql.requireText(kind, "kind");
        Sql.requireText(who, "who");
        Sql.requireText(version, "version");
        return store.inTransaction("startRun", c -> {
            long id;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO run (environment, "
                            + "kind, plan_json, who, flowform_version, started_at, outcome) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                Sql.bind(ps, store.environmentName(), kind, planJson, who, version, store.now(),
                        RunOutcome.RUNNING.name());
                ps.executeUpdate();
                id = Sql.generatedId(ps);
            }
            store.bumpSerial(c);
            return id;
        });
    }

    /**
     * Journals a step's intent before the step acts: a row with status {@link StepStatus#STARTED}.
     * Serial +1; committed before returning, so it survives the process being killed while the
     * step runs.
     *
     * @param runId      a run that is still {@link RunOutcome#RUNNING}
     * @param stepIndex  0-based position in the run's execution order
     * @param stepId     the plan's step id
     * @param kind       step kind, e.g. {@code SET_WORKER_EOS}; not blank
     * @param address    resource address acted on, or null
     * @param intentJson what the step is about to do, as JSON without secrets, or null
     * @return the journal row id, for {@link #done}, {@link #failed} or {@link #stopped}
     * @throws IllegalArgumentException when the run does not exist or {@code kind} is blank
     * @throws IllegalStateException    when the run is already finished
     * @throws StateStoreException      when the database fails
     */
    public long intent(long runId, int stepIndex, int stepId, String kind, String address, String intentJson) {
        Sql.requireText(kind, "kind");
        return store.inTransaction("journalIntent(run " + runId + ")", c -> {
            RunOutcome outcome = runOutcome(c, runId);
            if (outcome.isFinal()) {
                throw new IllegalStateException("run " + runId + " is already " + outcome + "; cannot journal step " + stepId);
            }
            long id;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO run_step "
                            + "(run_id, step_index, step_id, kind, address, intent_json, status, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                Sql.bind(ps, runId, stepIndex, stepId, kind, address, intentJson, StepStatus.STARTED.name(),
                        store.now());
                ps.executeUpdate();
                id = Sql.generatedId(ps);
            }
            store.bumpSerial(c);
            return id;
        });
    }

    /**
     * Marks a journaled step {@link StepStatus#DONE}, with its finish time and duration. Serial +1.
     *
     * @param stepRowId the id {@link #intent} returned
     * @param detail    what was observed, or null
     * @throws IllegalArgumentException when there is no such journal row
     * @throws IllegalStateException    when the step is no longer STARTED
     * @throws StateStoreException      when the database fails
     */
    public void done(long stepRowId, String detail) {
        finishStep(stepRowId, StepStatus.DONE, detail);
    }

    /**
     * Marks a journaled step {@link StepStatus#FAILED}, as {@link #done} does (same errors).
     *
     * @param detail the error, or null
     */
    public void failed(long stepRowId, String detail) {
        finishStep(stepRowId, StepStatus.FAILED, detail);
    }

    /**
     * Marks a journaled step {@link StepStatus#STOPPED} (a stop request ended it while it waited), as {@link #done}
     * does (same errors).
     *
     * @param detail how it was stopped, e.g. {@code stopped while waiting (interrupted by Ctrl-C (SIGINT))}
     */
    public void stopped(long stepRowId, String detail) {
        finishStep(stepRowId, StepStatus.STOPPED, detail);
    }

    private void finishStep(long stepRowId, StepStatus status, String detail) {
        String what = "journal" + status.name().charAt(0) + status.name().substring(1).toLowerCase(java.util.Locale.ROOT);
        store.inTransaction(what + "(" + stepRowId + ")", c -> {
            Instant started;
            StepStatus current;
            try (PreparedStatement ps = c.prepareStatement("SELECT status, started_at FROM run_step WHERE id = ? AND " + OWN_RUN)) {
                Sql.bind(ps, stepRowId, store.environmentName());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalArgumentException("no journal row " + stepRowId + " in " + store.location());
                    }
                    current = StepStatus.valueOf(rs.getString(1));
                    started = Sql.instant(rs, 2);
                }
            }
            if (current != StepStatus.STARTED) {
                throw new IllegalStateException("journal row " + stepRowId + " is already " + current + "; cannot mark it " + status);
            }
            Instant finished = store.now();
            long durationMs = Math.max(0, Duration.between(started, finished).toMillis());
            if (Sql.update(c, "UPDATE run_step SET status = ?, finished_at = ?, detail = ?, duration_ms = ? WHERE id = ?"
                    + " AND status = ?", status.name(), finished, detail, durationMs, stepRowId, StepStatus.STARTED.name()) != 1) {
                throw new IllegalStateException("journal row " + stepRowId + " changed while being marked " + status);
            }
            return store.bumpSerial(c);
        });
    }

    /**
     * Records how a run ended. Serial +1.
     *
     * <p>{@link RunOutcome#SUCCEEDED} is refused while one of the run's steps is still
     * {@link StepStatus#STARTED}: a run cannot have succeeded with a step whose outcome is unknown.
     *
     * @param runId   a run that is still {@link RunOutcome#RUNNING}
     * @param outcome SUCCEEDED, FAILED or INTERRUPTED
     * @param summary one paragraph for the history, or null
     * @throws IllegalArgumentException when the run does not exist or {@code outcome} is RUNNING
     * @throws IllegalStateException    when the run is already finished, or SUCCEEDED is given while
     *                                  a step is still STARTED
     * @throws StateStoreException      when the database fails
     */
    public void finishRun(long runId, RunOutcome outcome, String summary) {
        Objects.requireNonNull(outcome, "outcome");
        if (!outcome.isFinal()) {
            throw new IllegalArgumentException("finishRun needs a final outcome, not " + outcome);
        }
        store.inTransaction("finishRun(" + runId + ")", c -> {
            RunOutcome current = runOutcome(c, runId);
            if (current.isFinal()) {
                throw new IllegalStateException("run " + runId + " is already " + current + "; cannot finish it as " + outcome);
            }
            if (outcome == RunOutcome.SUCCEEDED) {
                List<StepRecord> open = selectSteps(c, "run_id = ? AND status = ? ORDER BY id",
                        runId, StepStatus.STARTED.name());
                if (!open.isEmpty()) {
                    StepRecord s = open.get(0);
                    throw new IllegalStateException("run " + runId + " cannot have SUCCEEDED: step " + s.stepId() + " ("
                            + s.kind() + ") is still STARTED; record its outcome first");
                }
            }
            setRunOutcome(c, runId, outcome, summary);
            return store.bumpSerial(c);
        });
    }

    /**
     * Marks a run left {@link RunOutcome#RUNNING} by a gone process (call it holding the lock) as
     * {@link RunOutcome#INTERRUPTED}; its open steps stay STARTED, their outcome unknown. Serial +1 when it changes.
     *
     * @param runId the run
     * @throws IllegalArgumentException when the run does not exist
     * @throws IllegalStateException    when the run SUCCEEDED or FAILED
     * @throws StateStoreException      when the database fails
     */
    public void markInterrupted(long runId) {
        store.inTransaction("markInterrupted(" + runId + ")", c -> {
            RunOutcome current = runOutcome(c, runId);
            if (current == RunOutcome.INTERRUPTED) {
                return null;
            }
            if (current != RunOutcome.RUNNING) {
                throw new IllegalStateException("run " + runId + " " + current + "; only a RUNNING run can be marked INTERRUPTED");
            }
            setRunOutcome(c, runId, RunOutcome.INTERRUPTED,
                    "Interrupted: the process running it stopped before recording an outcome; found by a later run.");
            return store.bumpSerial(c);
        });
    }

    /**
     * Finds the newest run still {@link RunOutcome#RUNNING} with its newest STARTED step; whether its process is gone
     * is the caller's to know (by holding the lock), then {@link #markInterrupted(long)}.
     *
     * @return the run and its open step, or empty when no run is RUNNING
     * @throws StateStoreException when the database fails
     */
    public Optional<Interrupted> interruptedRun() {
        return store.inTransaction("interruptedRun()", c -> {
            List<RunRecord> running = selectRuns(c, "outcome = ? ORDER BY id DESC FETCH FIRST 1 ROWS ONLY",
                    RunOutcome.RUNNING.name());
            if (running.isEmpty()) {
                return Optional.empty();
            }
            RunRecord run = running.get(0);
            List<StepRecord> open = selectSteps(c, "run_id = ? AND status = ? ORDER BY id DESC FETCH FIRST 1 ROWS ONLY",
                    run.id(), StepStatus.STARTED.name());
            return Optional.of(new Interrupted(run, open.stream().findFirst()));
        });
    }

    /**
     * @return every run, newest first
     * @throws StateStoreException when the database fails
     */
    public List<RunRecord> runs() {
        return store.inTransaction("runs()", c -> numberedNewestFirst(c, selectRunsWhere(c, NEWEST_FIRST, "")));
    }

    /**
     * @param limit how many runs at most; at least 1
     * @return the newest {@code limit} runs, newest first
     * @throws IllegalArgumentException when {@code limit} is below 1
     * @throws StateStoreException     when the database fails
     */
    public List<RunRecord> runs(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        return store.inTransaction("runs(" + limit + ")", c -> numberedNewestFirst(c, selectRunsWhere(c, NEWEST_FIRST,
                " FETCH FIRST ? ROWS ONLY", limit)));
    }

    /**
     * @param runId a run id
     * @return that run, or empty when there is none
     * @throws StateStoreException when the database fails
     */
    public Optional<RunRecord> run(long runId) {
        return store.inTransaction("run(" + runId + ")", c -> selectRuns(c, "id = ?", runId).stream().findFirst());
    }

    /**
     * @param runId a run id
     * @return the plan JSON recorded by {@link #startRun}; empty when the run does not exist or
     *         was started without a plan
     * @throws StateStoreException when the database fails
     */
    public Optional<String> planJson(long runId) {
        return store.inTransaction("planJson(" + runId + ")", c -> Sql.query(c,
                "SELECT plan_json FROM run WHERE id = ? AND environment = ?", rs -> Optional.ofNullable(rs.getString(1)),
                runId, store.environmentName()).stream().findFirst().flatMap(json -> json));
    }

    /**
     * @param runId a run id
     * @return its journal rows in the order they were written (empty for an unknown run)
     * @throws StateStoreException when the database fails
     */
    public List<StepRecord> steps(long runId) {
        return store.inTransaction("steps(" + runId + ")", c -> selectSteps(c, "run_id = ? ORDER BY id", runId));
    }

    /**
     * Turns rows recording a stop the old way (FAILED, detail starting {@link #STOPPED_DETAIL}) into
     * {@link StepStatus#STOPPED}, as migration V4 did to existing databases: rows of pulled state documents.
     *
     * @return how many rows changed
     */
    static int recordStopsAsStopped(Connection c, String environment) throws SQLException {
        return Sql.update(c, "UPDATE run_step SET status = ? WHERE status = ? AND detail LIKE ? AND " + OWN_RUN,
                StepStatus.STOPPED.name(), StepStatus.FAILED.name(), STOPPED_DETAIL + "%", environment);
    }

    private RunOutcome runOutcome(Connection c, long runId) throws SQLException {
        return Sql.query(c, "SELECT outcome FROM run WHERE id = ? AND environment = ?",
                rs -> RunOutcome.valueOf(rs.getString(1)), runId, store.environmentName()).stream().findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no run " + runId + " in " + store.location()));
    }

    private void setRunOutcome(Connection c, long runId, RunOutcome outcome, String summary) throws SQLException {
        if (Sql.update(c, "UPDATE run SET outcome = ?, finished_at = ?, summary = ? WHERE id = ? AND outcome = ?",
                outcome.name(), store.now(), summary, runId, RunOutcome.RUNNING.name()) != 1) {
            throw new IllegalStateException("run " + runId + " changed while being marked " + outcome);
        }
    }

    /** Selects this environment's runs: {@code condition} follows {@code WHERE environment = ? AND}. */
    private List<RunRecord> selectRuns(Connection c, String condition, Object... params) throws SQLException {
        List<RunRecord> out = new ArrayList<>();
        for (RunRecord r : selectRunsWhere(c, "environment = ? AND " + condition, "", params)) {
            out.add(withNumber(r, runsUpTo(c, r.id())));
        }
        return out;
    }

    /**
     * Numbers the newest runs, read newest first: the newest is the environment's run count, each older one less, so
     * numbers have no gaps where ids have (shared between environments, or skipped ahead by H2 after a crash).
     */
    private List<RunRecord> numberedNewestFirst(Connection c, List<RunRecord> newestFirst) throws SQLException {
        if (newestFirst.isEmpty()) {
            return newestFirst;
        }
        long number = runsUpTo(c, newestFirst.get(0).id());
        List<RunRecord> out = new ArrayList<>();
        for (RunRecord r : newestFirst) {
            out.add(withNumber(r, number--));
        }
        return out;
    }

    /** @return how many of this environment's runs have an id up to {@code id}: that run's number */
    private long runsUpTo(Connection c, long id) throws SQLException {
        return Sql.query(c, "SELECT COUNT(*) FROM run WHERE environment = ? AND id <= ?", rs -> rs.getLong(1),
                store.environmentName(), id).get(0);
    }

    private static RunRecord withNumber(RunRecord r, long number) {
        return new RunRecord(r.id(), number, r.kind(), r.who(), r.flowformVersion(), r.startedAt(), r.finishedAt(),
                r.outcome(), r.summary());
    }

    /** Selects runs: {@code where} binds the environment first, then {@code params}; {@code tail} follows it. */
    private List<RunRecord> selectRunsWhere(Connection c, String where, String tail, Object... params) throws SQLException {
        return Sql.query(c, "SELECT " + RUN_COLUMNS + " FROM run WHERE " + where + tail,
                rs -> new RunRecord(rs.getLong(1), 0, rs.getString(2), rs.getString(3), rs.getString(4), Sql.instant(rs, 5),
                        Sql.instant(rs, 6), RunOutcome.valueOf(rs.getString(7)), rs.getString(8)),
                Sql.with(store.environmentName(), params));
    }

    /** Selects journal rows of this environment's runs: {@code condition} follows {@code WHERE <own run> AND}. */
    private List<StepRecord> selectSteps(Connection c, String condition, Object... params) throws SQLException {
        return Sql.query(c, "SELECT " + STEP_COLUMNS + " FROM run_step WHERE " + OWN_RUN + " AND " + condition,
                rs -> new StepRecord(rs.getLong(1), rs.getLong(2), rs.getInt(3), rs.getInt(4), rs.getString(5),
                        rs.getString(6), rs.getString(7), StepStatus.valueOf(rs.getString(8)), Sql.instant(rs, 9),
                        Sql.instant(rs, 10), rs.getString(11), rs.getObject(12, Long.class)),
                Sql.with(store.environmentName(), params));
    }
}
