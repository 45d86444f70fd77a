package dev.flowform.bench;

import dev.flowform.cli.CliContext;
import dev.flowform.cli.Main;
import dev.flowform.cli.Prompter;
import dev.flowform.locking.Sleeper;
import dev.flowform.state.StateStore;
import dev.flowform.state.pg.PgConnection;
import dev.flowform.testing.PgServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Benchmark 5, state growth: an environment's state database holding 10,000 recorded apply runs (each with the
 * quickstart's plan document and its 6 journaled steps), then {@code flowform history} in-process (a warm JVM)
 * and as a whole process, and the database file's size; then the same 10,000 runs in PostgreSQL (the {@code pg}
 * backend, on the test fixture's embedded PostgreSQL 14 over loopback) and {@code history} in-process against them.
 */
final class StateBench {

    static final int RUNS = 10_000;
    private static final int STEPS = 6;

    private final BenchMain.Options options;
    private final Report report;

    StateBench(BenchMain.Options options, Report report) {
        this.options = options;
        this.report = report;
    }

    void run() throws Exception {
        Path work = options.work().resolve("state");
        BenchMain.deleteTree(work);
        Path stateDir = work.resolve("state");
        CliContext ctx = new CliContext(Clock.systemUTC(), Prompter.system(), System.getenv(), null, Duration.ofSeconds(10));
        String planJson = quickstartPlan(ctx, work.resolve("qs-state"));
        try (StateStore store = StateStore.open(stateDir, Fixtures.ENVIRONMENT, Clock.systemUTC())) {
            store.environment();
        }
        long t0 = System.nanoTime();
        String file = StateStore.databaseFile(stateDir, Fixtures.ENVIRONMENT).toString();
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + file.substring(0, file.length() - ".mv.db".length()),
                "sa", "")) {
            fill(c, planJson);
        }
        double fillMs = (System.nanoTime() - t0) / 1e6;
        long bytes = Files.size(StateStore.databaseFile(stateDir, Fixtures.ENVIRONMENT));
        List<String> args = List.of("history", "-e", Fixtures.ENVIRONMENT, "--state-dir", stateDir.toString(), "--no-color");
        Stats in = inProcess(ctx, args);
        Stats pg = postgres(planJson, work);
        Stats cli = cli(List.of(Procs.java(), "-jar", options.jar().toString()), args, work);
        Path jsa = StartupBench.archive(options);
        Stats cds = Files.exists(jsa) ? cli(List.of(Procs.java(), "-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=off", "-jar",
                options.jar().toString()), args, work) : null;
        double mib = bytes / 1024.0 / 1024.0;
        report.put("state", BenchMain.map("runs", RUNS, "steps_per_run", STEPS, "plan_json_bytes", planJson.length(),
                "file_bytes", bytes, "fill_ms", Math.round(fillMs), "history_in_process_ms", in.toJson(),
                "history_cli_ms", cli.toJson(), "history_cli_appcds_ms", cds == null ? null : cds.toJson(),
                "history_in_process_postgresql_ms", pg.toJson()));
        report.md("### 5. State growth\n");
        report.md(String.format("A state database with %,d apply runs (each with the quickstart's %,d-byte plan document and %d "
                + "journaled steps): **%.1f MiB** (`flowform.mv.db`). `history` (the newest 20 runs with their steps), median "
                + "(min–max) of %d runs, in ms:%n", RUNS, planJson.length(), STEPS, mib, options.runs()));
        List<List<String>> table = new ArrayList<>();
        table.add(List.of("in-process (warm JVM, opening the state included)", in.format(1)));
        table.add(List.of("in-process, state in PostgreSQL (pg backend, loopback)", pg.format(1)));
        table.add(List.of("CLI process, `java -jar`", cli.format(0)));
        if (cds != null) {
            table.add(List.of("CLI process, AppCDS", cds.format(0)));
        }
        report.md(Report.table(List.of("history", "ms"), table));
        String verdict = "- `history` under 300 ms with 10,000 runs: " + Report.verdict(in.median() < 300,
                String.format("%.1f ms in-process; a whole process takes %.0f ms%s, almost all of it JVM and H2 start-up",
                        in.median(), cli.median(), cds == null ? "" : String.format(" (%.0f ms with AppCDS)", cds.median())));
        String pgVerdict = "- `history` under 300 ms with 10,000 runs in PostgreSQL: " + Report.verdict(pg.median() < 300,
                String.format("%.1f ms in-process", pg.median()));
        report.put("state_verdicts", List.of(verdict, pgVerdict));
        report.md(verdict + "\n" + pgVerdict + "\n");
    }

    /** @return the in-process times of {@code flowform args}, after the warm-up runs */
    private Stats inProcess(CliContext ctx, List<String> args) {
        List<Double> inProcess = new ArrayList<>();
        for (int i = 0; i < options.warmup() + options.runs(); i++) {
            var cl = Main.commandLine(ctx);
            StringWriter out = new StringWriter();
            cl.setOut(new PrintWriter(out));
            cl.setErr(new PrintWriter(Writer.nullWriter()));
            long s = System.nanoTime();
            int code = cl.execute(args.toArray(String[]::new));
            double ms = (System.nanoTime() - s) / 1e6;
            if (code != 0 || !out.toString().contains("Run " + RUNS)) {
                throw new IllegalStateException("history exited " + code + " without run " + RUNS);
            }
            if (i >= options.warmup()) {
                inProcess.add(ms);
            }
        }
        return Stats.of(inProcess);
    }

    /** Fills an environment in PostgreSQL with the same runs and times {@code history} on it in-process. */
    private Stats postgres(String planJson, Path work) throws Exception {
        PgServer.Database db = PgServer.get().freshDatabase("bench");
        PgConnection settings = PgConnection.resolve(db.keywordConnStr(), Map.of());
        try (StateStore store = StateStore.openPostgres(settings, "flowform", Fixtures.ENVIRONMENT, Clock.systemUTC(),
                Sleeper.SYSTEM, true)) {
            store.environment();
        }
        try (Connection c = DriverManager.getConnection(settings.jdbcUrl(), settings.properties())) {
            try (Statement st = c.createStatement()) {
                st.execute("SET search_path TO flowform");
            }
            fill(c, planJson);
        }
        Path conf = Files.createDirectories(work.resolve("pg-conf"));
        Files.writeString(conf.resolve("main.flow.json"), "{\"backend\": {\"pg\": {\"schema_name\": \"flowform\"}}}");
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put(PgConnection.CONN_STR_VARIABLE, db.keywordConnStr());
        CliContext ctx = new CliContext(Clock.systemUTC(), Prompter.system(), env, null, Duration.ofSeconds(10));
        return inProcess(ctx, List.of("history", "-e", Fixtures.ENVIRONMENT, "--dir", conf.toString(), "--no-color"));
    }

    private Stats cli(List<String> launcher, List<String> args, Path work) {
        List<Double> times = new ArrayList<>();
        for (int i = 0; i < 1 + options.runs(); i++) {
            List<String> cmd = new ArrayList<>(launcher);
            cmd.addAll(args);
            Procs.Result r = Procs.check(Procs.run(work, Map.of(), cmd), "flowform history", 0);
            if (i > 0) {
                times.add(r.millis());
            }
        }
        return Stats.of(times);
    }

    /** @return the quickstart's plan document, as an apply records it */
    private String quickstartPlan(CliContext ctx, Path stateDir) {
        var cl = Main.commandLine(ctx);
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(Writer.nullWriter()));
        int code = cl.execute("plan", "--json", "--dir", options.project().resolve("examples/quickstart").toString(),
                "--state-dir", stateDir.toString());
        if (code != 0) {
            throw new IllegalStateException("quickstart plan --json exited " + code);
        }
        return out.toString().strip();
    }

    /** Inserts the runs and their steps with plain JDBC in batches (the schema is the one StateStore migrated). */
    private static void fill(Connection c, String planJson) throws Exception {
        String[] kinds = {"SET_WORKER_EOS", "WAIT_FOR_ROLL", "SET_WORKER_EOS", "WAIT_FOR_ROLL", "UPDATE_CONNECTOR",
                "WAIT_FOR_CONNECTOR_READY"};
        String[] addresses = {"connect_cluster.mm2-connect", "connect_cluster.mm2-connect", "connect_cluster.mm2-connect",
                "connect_cluster.mm2-connect", "kafka_connector.dc1-to-dc2-source", "kafka_connector.dc1-to-dc2-source"};
        c.setAutoCommit(false);
        OffsetDateTime start = OffsetDateTime.ofInstant(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
        try (PreparedStatement run = c.prepareStatement("INSERT INTO run (id, environment, kind, plan_json, who, "
                + "flowform_version, started_at, finished_at, outcome, summary) VALUES (?, '" + Fixtures.ENVIRONMENT
                + "', 'apply', ?, 'bench@host', '0.1.0', ?, ?, 'SUCCEEDED', "
                + "'0 added, 2 changed, 0 destroyed; 2 rolling restarts.')");
             PreparedStatement step = c.prepareStatement("INSERT INTO run_step (run_id, step_index, step_id, kind, address, "
                     + "intent_json, status, started_at, finished_at, detail, duration_ms) VALUES (?, ?, ?, ?, ?, ?, 'DONE', ?, ?, ?, ?)")) {
            for (int r = 1; r <= RUNS; r++) {
                OffsetDateTime at = start.plusMinutes(r * 10L);
                run.setLong(1, r);
                run.setString(2, planJson);
                run.setObject(3, at);
                run.setObject(4, at.plusSeconds(15));
                run.addBatch();
                for (int s = 0; s < STEPS; s++) {
                    step.setLong(1, r);
                    step.setInt(2, s);
                    step.setInt(3, s + 1);
                    step.setString(4, kinds[s]);
                    step.setString(5, addresses[s]);
                    step.setString(6, "{\"id\":" + (s + 1) + ",\"kind\":\"" + kinds[s] + "\",\"address\":\"" + addresses[s] + "\"}");
                    step.setObject(7, at.plusSeconds(2L * s));
                    step.setObject(8, at.plusSeconds(2L * s + 2));
                    step.setString(9, "done: generation " + (r + s));
                    step.setLong(10, 2000);
                    step.addBatch();
                }
                if (r % 500 == 0) {
                    run.executeBatch();
                    step.executeBatch();
                    c.commit();
                }
            }
        }
        try (Statement st = c.createStatement()) {
            st.execute("ALTER TABLE run ALTER COLUMN id RESTART WITH " + (RUNS + 1));
            st.execute("UPDATE environment SET serial = serial + " + (RUNS * STEPS * 2L) + " WHERE name = '"
                    + Fixtures.ENVIRONMENT + "'");
        }
        c.commit();
    }
}
