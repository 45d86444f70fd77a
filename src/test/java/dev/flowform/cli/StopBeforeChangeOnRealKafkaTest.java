package dev.flowform.cli;

import dev.flowform.cli.view.ProveView;
import dev.flowform.locking.Sleeper;
import dev.flowform.run.ProveOperation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.connect.RealKafka;
import dev.flowform.plan.rules.ConnectorRules;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Apply complete!" means exactly-once is in effect, on real Kafka, many times over and on a loaded machine: a
 * KafkaConnector flow (topic {@code orders}) and a KafkaMirrorMaker2 mirror (topic {@code payments}), each with 3 source
 * tasks over 6 partitions on workers already exactly-once enabled, have exactly-once turned on and off again by
 * flowform's apply {@value #RUNS} times while a thread burns a core. The moment each apply that turns it on returns, 100
 * transactions of 10 records, every second one aborted, are written to both topics with no pause; the target must show
 * every committed record once and no aborted one. From the workers' logs, every task instance that ran when an apply
 * began (in either direction) must have been stopped before that apply returned, and after each apply every task
 * configuration Kafka Connect stores must be of the new configuration (docs/domain-rules.md, 8b).
 */
@Tag("kafka")
class StopBeforeChangeOnRealKafkaTest {

    static final int RUNS = 10;
    private static final Path DIR = Path.of("src/test/resources/stop-before-change-real");
    private static final String NS = "replication";
    /** Where the worker logs of the last run are kept when the test fails. */
    private static final Path LOGS = Path.of("target/stop-before-change-real-logs");

    /** One flow under test: where Connect runs its source connector, and the topic it copies. */
    private record Flow(String kind, String cluster, String connector, String topic) {
    }

    private static final List<Flow> FLOWS = List.of(
            new Flow("KafkaConnector", NS + "/mm2-connect", "dc1-to-dc2-source", "orders"),
            new Flow("KafkaMirrorMaker2", NS + "/mm2", "dc1->dc2.MirrorSourceConnector", "payments"));

    @TempDir
    Path work;

    @Test
    void no_aborted_record_is_copied_when_written_the_moment_apply_returns() throws Exception {
        try (RealKafka kafka = RealKafka.start(
                Map.of("dc1", List.of("dc1-kafka-bootstrap.kafka-dc1.svc:9092"),
                        "dc2", List.of("dc2-kafka-bootstrap.kafka-dc2.svc:9092")),
                Map.of("dc1", List.of("orders", "payments")), Map.of("dc1", 6), work.resolve("kafka"));
             EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(DIR.resolve("seed"))
                     .settings(SimSettings.demo()).connectRuntime(kafka::runtime).build())) {
            assertThat(ProveOperation.awaitConnectorsRunning(cluster, NS, new ProveView(new PrintWriter(System.out, true)),
                    Sleeper.SYSTEM))
                    .as("the seeded connectors run").isTrue();
            CliRunner cli = new CliRunner(CliRunner.unattended().withAttachedCluster(cluster));
            List<String> failures = new ArrayList<>();
            List<String> rows = new ArrayList<>();
            AtomicBoolean burning = new AtomicBoolean(true);
            Thread burner = burner(burning);
            try {
                for (int run = 1; run <= RUNS; run++) {
                    runOnce(kafka, cli, run, rows, failures);
                }
            } finally {
                burning.set(false);
                burner.join();
            }
            System.out.println("run  flow               on: last old task stopped  off: last old task stopped  "
                    + "committed  aborted copied  duplicates\n" + String.join("\n", rows));
            if (!failures.isEmpty()) {
                WorkerLogs.keep(kafka.workerLogDir(), LOGS);
            }
            assertThat(failures).as("worker logs kept in %s when this fails", LOGS).isEmpty();
        }
    }

    /** Turns exactly-once on, writes the moment it is on, turns it off again, and checks both applies and the data. */
    private void runOnce(RealKafka kafka, CliRunner cli, int run, List<String> rows, List<String> failures) {
        LocalTime onBegan = LocalTime.now();
        apply(cli, "true");
        LocalTime onReturned = LocalTime.now();
        List<CompletableFuture<RealKafka.Produced>> writes = FLOWS.stream().map(f -> CompletableFuture.supplyAsync(() ->
                kafka.write("dc1", f.topic(), phase(run, f), 100, 10, 2, Duration.ZERO, tx -> { }))).toList();
        checkTaskConfigs(kafka, true, run, failures);
        List<CompletableFuture<RealKafka.Counted>> counts = new ArrayList<>();
        for (int i = 0; i < FLOWS.size(); i++) {
            Flow f = FLOWS.get(i);
            int committed = writes.get(i).join().committed();
            counts.add(CompletableFuture.supplyAsync(() -> kafka.count("dc2", "dc1." + f.topic(), phase(run, f), committed,
                    true, Duration.ofSeconds(120))));
        }
        List<RealKafka.Counted> counted = counts.stream().map(CompletableFuture::join).toList();

        LocalTime offBegan = LocalTime.now();
        apply(cli, "false");
        LocalTime offReturned = LocalTime.now();
        checkTaskConfigs(kafka, false, run, failures);

        TaskLifetimes lives = TaskLifetimes.read(kafka.workerLogDir());
        for (int i = 0; i < FLOWS.size(); i++) {
            Flow f = FLOWS.get(i);
            RealKafka.Produced p = writes.get(i).join();
            RealKafka.Counted c = counted.get(i);
            String on = shown(lives.lastOldStop(f.connector(), onBegan, onReturned).orElse(null));
            String off = shown(lives.lastOldStop(f.connector(), offBegan, offReturned).orElse(null));
            rows.add(String.format("%3d  %-17s  %25s  %26s  %9d  %14d  %10d", run, f.kind(), on, off, c.committed(),
                    c.aborted(), c.duplicates()));
            if (c.aborted() != 0 || c.duplicates() != 0 || c.committed() != p.committed()) {
                failures.add("run " + run + " " + f.kind() + ": " + c + " for " + p);
            }
            for (String[] w : new String[][] {{"on", on}, {"off", off}}) {
                if (!w[1].startsWith("-")) {
                    failures.add("run " + run + " " + f.kind() + ": a task of the old configuration stopped " + w[1]
                            + " after the apply turning exactly-once " + w[0] + " returned");
                }
            }
        }
    }

    /** @return the records' prefix of one run and flow; also the writer's transactional id, so one per writer */
    private static String phase(int run, Flow f) {
        return "r" + run + "-" + f.topic();
    }

    private void apply(CliRunner cli, String exactlyOnce) {
        CliRunner.Result r = cli.run("apply", "--dir", DIR.toString(), "-e", "real", "--state-dir",
                work.resolve("state").toString(), "--auto-approve", "--no-color", "-var", "exactly_once=" + exactlyOnce);
        assertThat(r.exitCode()).as("apply exactly_once=%s: %s", exactlyOnce, r).isZero();
        assertThat(r.out()).contains("STOP_CONNECTOR", "Apply complete!");
    }

    /**
     * After apply, every task configuration Connect stores is of the new configuration: with exactly-once,
     * {@code read_committed} and {@code exactly.once.support=required}; without, no {@code exactly.once.support} (turning
     * exactly-once off leaves {@code read_committed}, which at-least-once does not mind).
     */
    private static void checkTaskConfigs(RealKafka kafka, boolean exactlyOnce, int run, List<String> failures) {
        for (Flow f : FLOWS) {
            List<Map<String, String>> tasks = kafka.taskConfigs(f.cluster(), f.connector()).orElse(List.of());
            boolean ok = !tasks.isEmpty() && tasks.stream().allMatch(t -> exactlyOnce
                    ? ConnectorRules.READ_COMMITTED.equals(t.get(ConnectorRules.SOURCE_ISOLATION_LEVEL))
                    && "required".equals(t.get(ConnectorRules.EXACTLY_ONCE_SUPPORT))
                    : !t.containsKey(ConnectorRules.EXACTLY_ONCE_SUPPORT));
            if (!ok) {
                failures.add("run " + run + " " + f.kind() + ": after the apply turning exactly-once "
                        + (exactlyOnce ? "on" : "off") + ", Connect stores the task configurations " + tasks);
            }
        }
    }

    private static String shown(Duration d) {
        if (d == null) {
            return "none alive";
        }
        if (d.toDays() >= 1) {
            return "still running";
        }
        return String.format("%+.2f s", d.toMillis() / 1000.0);
    }

    /** A thread that keeps one core busy (the machine loaded, as a CI runner next to other jobs is). */
    private static Thread burner(AtomicBoolean burning) {
        Thread t = new Thread(() -> {
            long x = 1;
            while (burning.get()) {
                for (int i = 0; i < 1_000_000; i++) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
            }
            if (x == 42) {
                System.out.println(x);
            }
        }, "cpu-burner");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
