package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.run.ClusterConnection;
import dev.flowform.state.StateBackups;
import dev.flowform.state.StateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where state lives and how it is recovered, through the CLI on a copy of the quickstart laid out like the repository
 * ({@code <tmp>/repo/examples/quickstart}, whose backend block points at {@code <tmp>/repo/state}): the same state from
 * any working directory, the {@code plan --out} hint as printed, read-only states, backups with {@code state restore}
 * after the database file is truncated, and {@code state pull} / {@code state push}.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class StateHomeCliTest {

    private static final Duration CHILD_LIMIT = Duration.ofSeconds(120);

    @TempDir
    Path tmp;
    private Path repo;
    private Path dir;
    private Path repoState;

    @BeforeEach
    void layOutLikeTheRepository() {
        repo = tmp.resolve("repo");
        dir = CliFiles.quickstart(repo.resolve("examples/quickstart"));
        repoState = repo.resolve("state");
    }

    private static String[] args(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--no-color");
        return all.toArray(String[]::new);
    }

    private CliRunner.Result applyHere(CliRunner cli, String... more) {
        List<String> all = new ArrayList<>(List.of("apply", "--dir", dir.toString(), "--auto-approve"));
        all.addAll(List.of(more));
        CliRunner.Result r = cli.run(args(all.toArray(String[]::new)));
        assertThat(r.exitCode()).as("%s", r).isZero();
        return r;
    }

    /** What a child flowform process printed and returned. */
    record Done(int exitCode, String out, String err) {
    }

    private static Done child(Path workDir, String... args) throws InterruptedException {
        try (ChildFlowform c = ChildFlowform.start(workDir, Map.of(ClusterConnection.SIM_FAST_ENV, "1"), args)) {
            int code = c.waitFor(CHILD_LIMIT);
            return new Done(code, c.out(), c.err());
        }
    }

    @Test
    @Tag("slow")
    void the_quickstart_run_from_another_working_directory_finds_the_same_state() throws Exception {
        applyHere(CliRunner.fast());
        assertThat(repoState.resolve("demo").resolve("flowform.mv.db")).exists();

        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Done fromElsewhere = child(elsewhere, "plan", "--dir", "../repo/examples/quickstart",
                "--detailed-exitcode", "--no-color");
        assertThat(fromElsewhere.exitCode()).as("%s", fromElsewhere).isZero();
        assertThat(fromElsewhere.out()).contains("No changes.");
        Done fromRepo = child(repo, "plan", "--dir", "examples/quickstart", "--detailed-exitcode", "--no-color");
        assertThat(fromRepo.exitCode()).as("%s", fromRepo).isZero();
        assertThat(fromRepo.out()).contains("No changes.");

        assertThat(elsewhere.resolve("state")).doesNotExist();
        assertThat(dir.resolve("state")).doesNotExist();
        try (Stream<Path> envs = Files.list(repoState)) {
            assertThat(envs.map(p -> p.getFileName().toString())).containsExactly("demo");
        }
    }

    @Test
    @Tag("slow")
    void the_hint_after_plan_out_works_as_printed_from_the_same_shell() throws Exception {
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Done plan = child(elsewhere, "plan", "--dir", "../repo/examples/quickstart", "--out", "my plan.json",
                "--no-color");
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        String hint = plan.out().lines().dropWhile(l -> !l.startsWith("To perform exactly these actions")).skip(1)
                .findFirst().orElseThrow().trim();
        assertThat(hint).isEqualTo("flowform apply 'my plan.json' --dir ../repo/examples/quickstart -e demo");

        Done apply = child(elsewhere, shellWords(hint.substring("flowform ".length())));
        assertThat(apply.exitCode()).as("%s", apply).isZero();
        assertThat(apply.out()).contains("Apply complete!");
        try (StateStore state = StateStore.open(repoState, "demo", Clock.systemUTC())) {
            assertThat(state.journal().runs()).hasSize(1);
        }
    }

    @Test
    void the_hint_repeats_the_state_folder_and_variable_files_when_given() throws IOException {
        Path varFile = Files.writeString(tmp.resolve("vars.json"), "{\"exactly_once\": true}");
        Path plan = tmp.resolve("p.plan");
        Path stateDir = tmp.resolve("other state");

        CliRunner.Result r = CliRunner.fast().run(args("plan", "--dir", dir.toString(), "--state-dir", stateDir.toString(),
                "--var-file", varFile.toString(), "--out", plan.toString()));

        assertThat(r.exitCode()).as("%s", r).isZero();
        assertThat(r.out()).contains("    flowform apply " + plan + " --dir " + dir + " -e demo --state-dir '" + stateDir
                + "' --var-file " + varFile + "\n");
        CliRunner.Result apply = CliRunner.fast().run(shellWords(r.out().lines()
                .filter(l -> l.startsWith("    flowform apply ")).findFirst().orElseThrow().trim().substring("flowform ".length())));
        assertThat(apply.exitCode()).as("%s", apply).isZero();
        assertThat(stateDir.resolve("demo").resolve("flowform.mv.db")).exists();
        assertThat(repoState).doesNotExist();
    }

    @Test
    void a_read_only_state_can_be_read_without_a_lock_and_is_never_written() throws IOException {
        CliRunner cli = CliRunner.fast();
        applyHere(cli);
        Path copy = tmp.resolve("read-only");
        CliFiles.copy(repoState, copy);
        Path db = copy.resolve("demo").resolve("flowform.mv.db");
        byte[] before = Files.readAllBytes(db);
        List<String> filesBefore = listing(copy);
        // Tests run as root, and root may write whatever the mode bits say, so Files.isWritable stays true: flowform
        // also honours a missing owner-write bit, which is what chmod -w leaves.
        setWritable(copy, false);
        try {
            String[] common = {"--dir", dir.toString(), "--state-dir", copy.toString()};
            for (String[] command : List.of(new String[] {"plan", "--detailed-exitcode"}, new String[] {"show"},
                    new String[] {"history"}, new String[] {"state", "list"}, new String[] {"state", "pull"})) {
                CliRunner.Result r = cli.run(args(concat(command, common)));
                assertThat(r.exitCode()).as("%s: %s", String.join(" ", command), r).isZero();
                assertThat(r.err()).as(String.join(" ", command)).contains("Note: the state of environment \"demo\" ("
                        + db.toAbsolutePath() + ") is read-only: it was opened for reading only, and no lock was taken.");
                assertThat(r.err()).doesNotContain("org.h2", "Exception");
            }
            CliRunner.Result plan = cli.run(args(concat(new String[] {"plan"}, common)));
            assertThat(plan.out()).contains("No changes.");

            CliRunner.Result apply = cli.run(args(concat(new String[] {"apply", "--auto-approve"}, common)));
            assertThat(apply.exitCode()).isEqualTo(1);
            assertThat(apply.err()).contains("The state of environment \"demo\" is read-only", "Nothing was changed.");
        } finally {
            setWritable(copy, true);
        }
        assertThat(Files.readAllBytes(db)).isEqualTo(before);
        assertThat(listing(copy)).isEqualTo(filesBefore);
    }

    @Test
    void a_truncated_database_gives_a_clear_message_and_the_newest_backup_restores_it() throws IOException {
        CliRunner cli = CliRunner.fast();
        applyHere(cli);
        long firstSerial;
        String lineage;
        try (StateStore state = StateStore.open(repoState, "demo", Clock.systemUTC())) {
            firstSerial = state.stateRef().serial();
            lineage = state.stateRef().lineage();
        }
        applyHere(cli, "--var", "exactly_once=false");
        List<StateBackups.Backup> backups = StateBackups.list(repoState, "demo");
        assertThat(backups).extracting(StateBackups.Backup::serial).containsExactly(firstSerial);

        Path db = repoState.resolve("demo").resolve("flowform.mv.db");
        try (var ch = Files.newByteChannel(db, java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(Files.size(db) / 2 + 100);
        }
        byte[] damaged = Files.readAllBytes(db);
        for (String[] command : List.of(new String[] {"plan"}, new String[] {"history"}, new String[] {"apply", "--auto-approve"})) {
            CliRunner.Result r = cli.run(args(concat(command, new String[] {"--dir", dir.toString()})));
            assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
            assertThat(r.err()).as(command[0]).contains("Error: The state database of environment \"demo\" is damaged",
                    "The newest backup (serial " + firstSerial + ", taken before an apply) is:\n  " + backups.get(0).file() + "\n",
                    "\n  flowform state restore --dir " + dir + " -e demo\n",
                    "\n  unzip -p " + backups.get(0).file() + " flowform.mv.db > " + db.toAbsolutePath() + "\n");
            assertThat(FaultSuiteTest.flat(r.err())).contains(db.toAbsolutePath() + " cannot be read: it is " + damaged.length
                    + " bytes long, not a whole number of 4096-byte blocks (the file was truncated).");
            assertThat(r.err()).doesNotContain("org.h2", "Exception", "\tat ");
        }
        assertThat(Files.readAllBytes(db)).as("nothing writes to a damaged file").isEqualTo(damaged);

        CliRunner.Result restore = cli.run(args("state", "restore", "--dir", dir.toString(), "-e", "demo"));
        assertThat(restore.exitCode()).as("%s", restore).isZero();
        assertThat(restore.out()).contains("Restored the state of environment \"demo\" from " + backups.get(0).file()
                + ": lineage " + lineage + ", serial " + firstSerial + ".", "The replaced file is kept as ");
        try (StateStore state = StateStore.open(repoState, "demo", Clock.systemUTC())) {
            assertThat(state.stateRef().serial()).isEqualTo(firstSerial);
            assertThat(state.stateRef().lineage()).isEqualTo(lineage);
            assertThat(state.journal().runs()).hasSize(1);
        }
        try (Stream<Path> files = Files.list(db.getParent())) {
            Path kept = files.filter(p -> p.getFileName().toString().startsWith("flowform.mv.db.replaced-")).findFirst().orElseThrow();
            assertThat(Files.readAllBytes(kept)).isEqualTo(damaged);
        }

        CliRunner.Result again = cli.run(args("state", "restore", "--dir", dir.toString()));
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains("The state can still be read", "--force");
    }

    @Test
    void state_pull_then_push_into_a_fresh_state_folder_round_trips() throws IOException {
        CliRunner cli = CliRunner.fast();
        applyHere(cli);
        applyHere(cli, "--var", "exactly_once=false");
        CliRunner.Result pull = cli.run(args("state", "pull", "--dir", dir.toString()));
        assertThat(pull.exitCode()).as("%s", pull).isZero();
        assertThat(pull.out()).contains("\"format\" : \"flowform-state\"", "\"secret_salt\"", "\"runs\"", "\"steps\"",
                "\"resources\"", "\"outputs\"").doesNotContain("Fixture-Secret-4417");
        Path file = Files.writeString(tmp.resolve("demo.state.json"), pull.out());

        Path fresh = tmp.resolve("fresh");
        // the embedded cluster's objects live in the state folder too, but they are the cluster, not the state
        Files.createDirectories(fresh.resolve("demo"));
        Files.copy(repoState.resolve("demo").resolve(ClusterConnection.EMBEDDED_CLUSTER_FILE), fresh.resolve("demo")
                .resolve(ClusterConnection.EMBEDDED_CLUSTER_FILE));
        CliRunner.Result push = cli.run(args("state", "push", file.toString(), "--dir", dir.toString(), "--state-dir",
                fresh.toString()));
        assertThat(push.exitCode()).as("%s", push).isZero();

        try (StateStore a = StateStore.open(repoState, "demo", Clock.systemUTC());
             StateStore b = StateStore.open(fresh, "demo", Clock.systemUTC())) {
            assertThat(b.stateRef()).isEqualTo(a.stateRef());
            assertThat(b.journal().runs()).hasSize(2).isEqualTo(a.journal().runs());
            for (var run : a.journal().runs()) {
                assertThat(b.journal().steps(run.id())).isEqualTo(a.journal().steps(run.id())).isNotEmpty();
            }
            assertThat(b.snapshots().all()).hasSize(4).isEqualTo(a.snapshots().all());
            assertThat(b.outputs().all()).isEqualTo(a.outputs().all());
            assertThat(b.environment()).isEqualTo(a.environment());
            assertThat(b.cipher().hash("x")).isEqualTo(a.cipher().hash("x"));
        }
        assertThat(push.out()).contains("Pushed " + file + " to the state of environment \"demo\"", "2 run(s)",
                "4 resource snapshot(s)");
        CliRunner.Result pulledAgain = cli.run(args("state", "pull", "--dir", dir.toString(), "--state-dir", fresh.toString()));
        assertThat(pulledAgain.out()).isEqualTo(pull.out());

        CliRunner.Result plan = cli.run(args("plan", "--dir", dir.toString(), "--state-dir", fresh.toString(), "--var",
                "exactly_once=false", "--detailed-exitcode"));
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        assertThat(plan.out()).contains("No changes.");

        // a new run in the fresh copy raises its serial; pushing the older document back is refused, then forced
        CliRunner.Result refresh = cli.run(args("apply", "--dir", dir.toString(), "--state-dir", fresh.toString(),
                "--auto-approve"));
        assertThat(refresh.exitCode()).as("%s", refresh).isZero();
        CliRunner.Result lower = cli.run(args("state", "push", file.toString(), "--dir", dir.toString(), "--state-dir",
                fresh.toString()));
        assertThat(lower.exitCode()).isEqualTo(1);
        assertThat(lower.err()).contains("Failed to push the state", "is lower than the state's serial", "Nothing was changed.");
        long serialBefore;
        try (StateStore b = StateStore.open(fresh, "demo", Clock.systemUTC())) {
            serialBefore = b.stateRef().serial();
        }
        CliRunner.Result forced = cli.run(args("state", "push", file.toString(), "--force", "--dir", dir.toString(),
                "--state-dir", fresh.toString()));
        assertThat(forced.exitCode()).as("%s", forced).isZero();
        try (StateStore b = StateStore.open(fresh, "demo", Clock.systemUTC())) {
            assertThat(b.stateRef().serial()).as("a forced push moves the serial on").isEqualTo(serialBefore + 1);
            assertThat(b.journal().runs()).hasSize(2);
        }
        assertThat(StateBackups.list(fresh, "demo")).isNotEmpty();

        String otherLineage = pull.out().replaceFirst("\"lineage\" : \"[0-9a-f-]+\"", "\"lineage\" : \"0-other\"");
        Path other = Files.writeString(tmp.resolve("other.json"), otherLineage);
        CliRunner.Result refused = cli.run(args("state", "push", other.toString(), "--dir", dir.toString(), "--state-dir",
                fresh.toString()));
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("lineage 0-other differs from the state's lineage");
    }

    @Test
    void backups_keep_the_newest_three_one_per_serial() throws IOException {
        CliRunner cli = CliRunner.fast();
        applyHere(cli);
        for (int i = 0; i < 4; i++) {
            applyHere(cli, "--var", "exactly_once=" + (i % 2 == 0 ? "false" : "true"));
        }
        List<StateBackups.Backup> backups = StateBackups.list(repoState, "demo");
        assertThat(backups).hasSize(StateBackups.KEEP);
        assertThat(backups).extracting(StateBackups.Backup::serial).doesNotHaveDuplicates().isSortedAccordingTo(
                java.util.Comparator.reverseOrder());
        long serial;
        try (StateStore state = StateStore.open(repoState, "demo", Clock.systemUTC())) {
            serial = state.stateRef().serial();
        }
        assertThat(backups.get(0).serial()).as("backed up before the last apply changed it").isLessThan(serial);

        // applies that change nothing leave the serial alone: its state is backed up once
        applyHere(cli, "--var", "exactly_once=true");
        List<StateBackups.Backup> afterOne = StateBackups.list(repoState, "demo");
        assertThat(afterOne.get(0).serial()).isEqualTo(serial);
        applyHere(cli, "--var", "exactly_once=true");
        assertThat(StateBackups.list(repoState, "demo")).isEqualTo(afterOne).hasSize(StateBackups.KEEP);
    }

    // ---------------------------------------------------------------------------------------------

    /** Splits a printed command into words as a POSIX shell would, for the quoting {@link CommandHint} uses. */
    static String[] shellWords(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '\'') {
                    quoted = false;
                } else {
                    word.append(c);
                }
            } else if (c == '\'') {
                quoted = true;
                inWord = true;
            } else if (c == '"') {
                int end = line.indexOf('"', i + 1);
                word.append(line, i + 1, end);
                i = end;
                inWord = true;
            } else if (c == ' ') {
                if (inWord) {
                    out.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            out.add(word.toString());
        }
        return out.toArray(String[]::new);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static List<String> listing(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.map(p -> root.relativize(p).toString()).sorted().toList();
        }
    }

    private static void setWritable(Path root, boolean writable) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.toList()) {
                Set<PosixFilePermission> perms = new java.util.HashSet<>(Files.getPosixFilePermissions(p));
                if (writable) {
                    perms.add(PosixFilePermission.OWNER_WRITE);
                } else {
                    perms.removeAll(List.of(PosixFilePermission.OWNER_WRITE, PosixFilePermission.GROUP_WRITE,
                            PosixFilePermission.OTHERS_WRITE));
                }
                Files.setPosixFilePermissions(p, perms);
            }
        }
    }
}
