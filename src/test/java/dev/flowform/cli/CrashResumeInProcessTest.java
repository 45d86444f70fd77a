package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flowform.apply.Journal;
import dev.flowform.live.Fabric8ClusterReader;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepPayload;
import dev.flowform.plan.rules.RollCheck;
import dev.flowform.run.ClusterConnection;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import dev.flowform.state.RunRecord;
import dev.flowform.state.StateStore;
import dev.flowform.state.StepRecord;
import dev.flowform.state.StepStatus;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The kill points of {@link CrashResumeTest} that it does not kill for real, crashed in-process: the quickstart
 * apply runs with a journal that dies on cue ({@link CrashingJournal}, through {@link CliContext#journalDecorator()})
 * right after its Nth write committed, or just before it, as a {@code kill -9} at that point would leave the
 * journal; nothing after the crash reaches the journal or the cluster. The embedded cluster the crashed apply
 * ran on is then closed (its file keeps every acknowledged write, as after a kill) and a fresh in-process apply
 * must resume exactly as after a real kill ({@link CrashResumeCheck}).
 *
 * <p>Journal writes are numbered from 1: step k's intent is write 2k-1, its done row write 2k. A crash in the
 * middle of a roll first waits, with the intent of the wait committed, until the cluster shows as many workers
 * on the new revision as the kill point names (or more: the real kill, too, lands a little after the line).
 *
 * <p>Unlike a real kill, the crashed command unwinds: it releases the state lock (asserted below) and the cluster
 * lease on its way out, so the resuming apply finds neither held. A lock and a lease left to a process that no
 * longer runs are what the real kills of {@link CrashResumeTest} cover.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class CrashResumeInProcessTest {

    /**
     * The simulated operator's timings of {@code FLOWFORM_SIM_FAST=1}, which the child JVMs of the real kills use:
     * for a crash in the middle of a roll, whose workers then become Ready 150 ms apart. Other crashes run at the
     * faster test timings, as the resuming apply does.
     */
    private static final SimSettings SIM_FAST = new SimSettings(Duration.ofMillis(50), Duration.ofMillis(150),
            Duration.ofMillis(50), Duration.ofSeconds(5));
    private static final Duration ROLL_LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    /**
     * @return crash points: name, the journal write (1-based) at which the apply dies, whether that write is
     *         committed first, and how many workers must be on the new revision first (0: no wait)
     */
    static Stream<Arguments> crashPoints() {
        return Stream.of(
                Arguments.of("while step 1 patches (intent committed)", 1, true, 0),
                Arguments.of("step 1 patched, its done row not written", 2, false, 0),
                Arguments.of("boundary 1|2 (patch done, roll not awaited)", 2, true, 0),
                Arguments.of("mid wait 2, two workers rolled", 3, true, 2),
                Arguments.of("boundary 2|3 (preparing roll done)", 4, true, 0),
                Arguments.of("while step 3 patches (intent committed)", 5, true, 0),
                Arguments.of("boundary 3|4", 6, true, 0),
                Arguments.of("mid wait 4, one worker rolled", 7, true, 1),
                Arguments.of("boundary 4|5 (enabled roll done)", 8, true, 0),
                Arguments.of("while step 5 stops the connector (intent committed)", 9, true, 0),
                Arguments.of("step 5 stopped the connector, its done row not written", 10, false, 0),
                Arguments.of("boundary 5|6 (connector stop written, not awaited)", 10, true, 0),
                Arguments.of("mid wait 6 (connector stopping)", 11, true, 0),
                Arguments.of("boundary 6|7 (connector seen STOPPED, not reconfigured)", 12, true, 0),
                Arguments.of("while step 7 reconfigures and starts (intent committed)", 13, true, 0),
                Arguments.of("step 7 reconfigured and started, its done row not written", 14, false, 0),
                Arguments.of("boundary 7|8 (connector started, not awaited)", 14, true, 0),
                Arguments.of("mid wait 8 (connector starting)", 15, true, 0),
                Arguments.of("after step 8, before the run is closed", 16, true, 0));
    }

    @ParameterizedTest(name = "[{index}] crash {0}")
    @MethodSource("crashPoints")
    void a_fresh_apply_after_a_crash_converges_with_each_step_done_once(String name, int write, boolean committed,
                                                                       int rolled) throws Exception {
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        Path stateDir = dir.resolve("state");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Throwable died;
        try (EmbeddedCluster cluster = startLikeTheApply(dir, stateDir, rolled > 0 ? SIM_FAST : SimSettings.fast())) {
            CrashingJournal journal = new CrashingJournal(write, committed, step -> awaitRolled(cluster, step, rolled));
            CliContext ctx = CliRunner.unattended().withAttachedCluster(cluster).withJournalDecorator(journal::wrap);
            died = catchThrowable(() -> new CliRunner(ctx).run(out, err, "apply", "--auto-approve", "--no-color", "--dir",
                    dir.toString(), "--state-dir", stateDir.toString()));
        }
        assertThat(died).as("crash point '%s' in:%n%s%n%s", name, out, err).isInstanceOf(SimulatedCrash.class);
        String[] lines = out.toString().split("\n");
        String lastLine = lines[lines.length - 1];

        CrashResumeCheck.Left left = CrashResumeCheck.left(stateDir);
        assertThat(left.runOpen()).as("the crash left the run open").isTrue();
        assertThat(left.lockLeft()).as("the crashed command released the lock as it unwound").isFalse();
        assertThat(journalOfTheCrashedRun(stateDir)).as("the crashed run's journal ends where it died")
                .hasSize((committed ? write + 1 : write) / 2)
                .last().isEqualTo(committed && write % 2 == 0 ? StepStatus.DONE : StepStatus.STARTED);

        CrashResumeCheck.resumeConverges(dir, stateDir, name, lastLine, left);
    }

    /** The embedded cluster the quickstart's apply would start (same file and seed), with the given timings. */
    private static EmbeddedCluster startLikeTheApply(Path dir, Path stateDir, SimSettings settings) throws IOException {
        Path envDir = Files.createDirectories(stateDir.resolve("demo"));
        return EmbeddedCluster.start(EmbeddedClusterOptions.builder()
                .persistFile(envDir.resolve(ClusterConnection.EMBEDDED_CLUSTER_FILE))
                .seedDir(dir.resolve("seed"))
                .settings(settings)
                .build());
    }

    /** Waits until the roll {@code step} waits for has at least {@code rolled} workers on the new revision. */
    private static void awaitRolled(EmbeddedCluster cluster, Step step, int rolled) {
        if (rolled == 0) {
            return;
        }
        StepPayload.WaitForRoll wait = (StepPayload.WaitForRoll) step.payload();
        Fabric8ClusterReader reader = new Fabric8ClusterReader(cluster.client());
        long deadline = System.nanoTime() + ROLL_LIMIT.toNanos();
        while (true) {
            LiveConnectCluster c = reader.read(Set.of(step.object().namespace()))
                    .cluster(step.object().namespace(), step.object().name()).orElseThrow();
            Readiness r = RollCheck.evaluate(c, wait.generation(), wait.expectedMode());
            if (r instanceof Readiness.Complete || r instanceof Readiness.InProgress p && p.done() >= rolled) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + rolled + " workers on the new revision within " + ROLL_LIMIT + ": " + r);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static List<StepStatus> journalOfTheCrashedRun(Path stateDir) {
        try (StateStore state = StateStore.open(stateDir, "demo", Clock.systemUTC())) {
            RunRecord run = state.journal().runs().get(0);
            return state.journal().steps(run.id()).stream().map(StepRecord::status).toList();
        }
    }

    /** What the crash throws: an Error, so no handler for ordinary failures journals or retries anything. */
    static final class SimulatedCrash extends Error {
        private static final long serialVersionUID = 1L;

        SimulatedCrash(String message) {
            super(message);
        }
    }

    /**
     * A journal that dies at its Nth write: after committing it, or instead of it. Once dead, every call
     * throws, so nothing more is recorded.
     */
    static final class CrashingJournal {
        private final int crashAt;
        private final boolean commitFirst;
        private final java.util.function.Consumer<Step> beforeCrash;
        private int writes;
        private Step lastStarted;
        private boolean dead;

        /**
         * @param crashAt     the write (1-based) at which to die
         * @param commitFirst whether that write is committed before dying
         * @param beforeCrash runs just before dying, with the step last started (e.g. waits for a roll to progress)
         */
        CrashingJournal(int crashAt, boolean commitFirst, java.util.function.Consumer<Step> beforeCrash) {
            this.crashAt = crashAt;
            this.commitFirst = commitFirst;
            this.beforeCrash = beforeCrash;
        }

        /** @return {@code delegate} dying on cue */
        Journal wrap(Journal delegate) {
            return new Journal() {
                @Override
                public synchronized long started(Step step, int index) {
                    lastStarted = step;
                    return write(() -> delegate.started(step, index));
                }

                @Override
                public synchronized void done(long handle, String detail) {
                    write(() -> {
                        delegate.done(handle, detail);
                        return 0L;
                    });
                }

                @Override
                public synchronized void failed(long handle, String detail) {
                    write(() -> {
                        delegate.failed(handle, detail);
                        return 0L;
                    });
                }
            };
        }

        private long write(java.util.function.LongSupplier call) {
            if (dead) {
                throw new SimulatedCrash("the process is dead");
            }
            writes++;
            if (writes < crashAt) {
                return call.getAsLong();
            }
            if (commitFirst) {
                call.getAsLong();
            }
            beforeCrash.accept(lastStarted);
            dead = true;
            throw new SimulatedCrash("crashed at journal write " + writes + (commitFirst ? ", committed" : ", not written"));
        }
    }
}
