package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution's launcher, {@code target/flowform/bin/flowform}, run as a user runs it (run by failsafe after the
 * package phase): through symbolic links, with the Java it finds or a clear refusal, with the JVM options of the
 * environment, with and without a class-data archive, and printing commands that work when pasted.
 */
class LauncherIT {
    /** Set by the failsafe configuration in pom.xml; absent when surefire picks this class up (-Dtest=...). */
    private static final String BUILD_DIR = System.getProperty("flowform.build.dir");
    private static final Path DIST = Path.of(BUILD_DIR == null ? "target" : BUILD_DIR, "flowform");
    private static final Path LAUNCHER = DIST.resolve("bin").resolve("flowform");

    @TempDir
    Path dir;

    /** What one launcher run printed and returned. */
    private record Run(int code, String out, String err) {
    }

    @BeforeEach
    void packaged() {
        assumeTrue(BUILD_DIR != null, "runs under failsafe, after the package phase");
        assumeTrue(Files.isExecutable(LAUNCHER) && Files.isExecutable(Path.of("/bin/sh")), "needs target/flowform/bin/flowform and /bin/sh");
    }

    /** The environment of a user with this JVM's Java on PATH and no JAVA_HOME, JAVA_OPTS or FLOWFORM_JAVA_OPTS. */
    private static Map<String, String> userEnv() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeAll(List.of("JAVA_HOME", "JAVA_OPTS", "FLOWFORM_JAVA_OPTS", "JAVA_TOOL_OPTIONS"));
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + File.pathSeparator + "/usr/bin:/bin");
        return env;
    }

    private Run run(Map<String, String> env, String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + List.of(command));
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void followsSymbolicLinksToItsDistribution() throws Exception {
        Path links = Files.createDirectories(dir.resolve("links"));
        Files.createSymbolicLink(links.resolve("target"), LAUNCHER.toAbsolutePath());
        Files.createSymbolicLink(links.resolve("flowform"), Path.of("target")); // relative, a link to a link

        Run r = run(userEnv(), "links/flowform", "--version");
        Files.delete(links.resolve("target")); // not left for @TempDir, which warns about links leading outside it

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("flowform ").contains("Java ");
    }

    @Test
    void refusesWhenJavaIsMissingOrOlderThan17() throws Exception {
        Map<String, String> env = userEnv();
        env.put("JAVA_HOME", dir.resolve("nowhere").toString());
        Run missingHome = run(env, LAUNCHER.toString(), "--version");
        assertThat(missingHome.code()).isEqualTo(1);
        assertThat(missingHome.err()).contains("JAVA_HOME is set to " + dir.resolve("nowhere")).contains("Java 17 or newer");

        Path java11 = Files.createDirectories(dir.resolve("jdk-11").resolve("bin")).resolve("java");
        Files.writeString(java11, "#!/bin/sh\necho 'openjdk version \"11.0.2\" 2019-01-15' >&2\n");
        assertThat(java11.toFile().setExecutable(true)).isTrue();
        env.put("JAVA_HOME", dir.resolve("jdk-11").toString());
        Run old = run(env, LAUNCHER.toString(), "--version");
        assertThat(old.code()).isEqualTo(1);
        assertThat(old.err()).contains("needs Java 17 or newer").contains("Java 11.0.2").contains("from JAVA_HOME");
        // the release file, when present, answers without starting the JVM
        Files.writeString(dir.resolve("jdk-11").resolve("release"), "IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"1.8.0_292\"\n");
        assertThat(run(env, LAUNCHER.toString(), "--version").err()).contains("Java 1.8.0_292");

        env.remove("JAVA_HOME");
        env.put("PATH", dir.resolve("empty").toString());
        Run none = run(env, "/bin/sh", LAUNCHER.toString(), "--version");
        assertThat(none.code()).isEqualTo(1);
        assertThat(none.err()).startsWith("flowform: no Java found").contains("JAVA_HOME");
        assertThat(none.out()).isEmpty();
    }

    @Test
    void usesTheSerialCollectorOnASmallInitialHeapUnlessTheOptionsChooseOthers() throws Exception {
        Map<String, String> env = userEnv();
        env.put("FLOWFORM_JAVA_OPTS", "-XX:+PrintCommandLineFlags");
        Run plain = run(env, LAUNCHER.toString(), "--version");
        assertThat(plain.code()).as(plain.err()).isZero();
        assertThat(plain.out()).contains("-XX:+UseSerialGC", "-XX:InitialHeapSize=16777216");

        // a second collector would stop the JVM ("Conflicting collector combinations"), so the launcher adds none
        env.put("JAVA_OPTS", "-XX:+UseParallelGC -Xms64m");
        Run chosen = run(env, LAUNCHER.toString(), "--version");
        assertThat(chosen.code()).as(chosen.err()).isZero();
        assertThat(chosen.out()).contains("-XX:+UseParallelGC", "-XX:InitialHeapSize=67108864").doesNotContain("UseSerialGC");

        env.remove("JAVA_OPTS");
        env.put("JAVA_TOOL_OPTIONS", "-XX:+UseG1GC");
        Run tool = run(env, LAUNCHER.toString(), "--version");
        assertThat(tool.code()).as(tool.err()).isZero();
        assertThat(tool.out()).contains("-XX:+UseG1GC", "-XX:InitialHeapSize=16777216").doesNotContain("UseSerialGC");
    }

    @Test
    void passesJvmOptionsFromTheEnvironment() throws Exception {
        Map<String, String> env = userEnv();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("JAVA_OPTS", "-Dff.one=1 -Dff.glob=*");
        env.put("FLOWFORM_JAVA_OPTS", "-XshowSettings:properties -Dff.two=2");

        Run r = run(env, LAUNCHER.toString(), "--version");

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("ff.one = 1", "ff.two = 2", "ff.glob = *");
        assertThat(r.out()).startsWith("flowform ");
    }

    @Test
    void usesAClassDataArchiveWhenPresentAndIgnoresAStaleOne() throws Exception {
        // a copy of the distribution, so the build's own lib/flowform.jsa (if any) is left alone
        Path home = dir.resolve("dist").toAbsolutePath();
        Files.createDirectories(home.resolve("bin"));
        Files.createDirectories(home.resolve("lib"));
        Files.copy(LAUNCHER, home.resolve("bin").resolve("flowform"));
        Files.copy(DIST.resolve("lib").resolve("flowform.jar"), home.resolve("lib").resolve("flowform.jar"));
        home = home.toRealPath();
        String launcher = home.resolve("bin").resolve("flowform").toString();
        Path jsa = home.resolve("lib").resolve("flowform.jsa");
        Map<String, String> env = userEnv();
        env.put("FLOWFORM_JAVA_OPTS", "-Xlog:cds=info");

        Run without = run(env, launcher, "--version");
        assertThat(without.code()).as(without.err()).isZero();
        assertThat(without.out()).contains("flowform ").doesNotContain("flowform.jsa");

        Run dump = run(userEnv(), Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:ArchiveClassesAtExit=" + jsa, "-Xlog:disable", "-jar", home.resolve("lib").resolve("flowform.jar").toString(),
                "--version");
        assumeTrue(dump.code() == 0 && Files.isRegularFile(jsa), "this JDK makes no dynamic archive: " + dump.err());
        Run unstamped = run(env, launcher, "--version");
        assertThat(unstamped.out()).as("no stamp says which Java made it").doesNotContain("flowform.jsa");

        Path stamp = home.resolve("lib").resolve("flowform.jsa.jvm");
        Files.writeString(stamp, releaseLines(Path.of(System.getProperty("java.home"))));
        Run with = run(env, launcher, "--version");
        assertThat(with.code()).as(with.err()).isZero();
        assertThat(with.out()).contains("Opened archive " + jsa).doesNotContain("Unable to use shared archive")
                .contains("flowform ");

        Files.writeString(stamp, "IMPLEMENTOR=\"Another\"\nJAVA_RUNTIME_VERSION=\"17.0.1+1\"\n");
        Run otherJava = run(env, launcher, "--version");
        assertThat(otherJava.code()).as(otherJava.err()).isZero();
        assertThat(otherJava.out()).as("made by another Java").doesNotContain("flowform.jsa");

        Files.writeString(stamp, releaseLines(Path.of(System.getProperty("java.home"))));
        Files.delete(jsa);
        Files.writeString(jsa, "not an archive");
        Run stale = run(userEnv(), launcher, "--version");
        assertThat(stale.code()).as(stale.err()).isZero();
        assertThat(stale.out()).startsWith("flowform ");
        assertThat(stale.err()).isEmpty();
    }

    /**
     * The build's AOT cache (made when a JDK 25 or newer is installed, as on every machine this project builds on) is
     * what that Java runs flowform with, and it prints nothing about it; Java 17 keeps to the class-data archive.
     */
    @Test
    void aJava25RunsWithTheAotCacheItMadeAndJava17WithItsClassDataArchive() throws Exception {
        Path aot = DIST.resolve("lib").resolve("flowform.aot");
        assertThat(aot).as("the build makes an AOT cache when a JDK 25+ is installed").isRegularFile();
        String madeBy = Files.readString(DIST.resolve("lib").resolve("flowform.aot.jvm"));
        Path jdk25;
        try (var jdks = Files.list(Path.of("/usr/lib/jvm"))) {
            jdk25 = jdks.filter(j -> Files.isReadable(j.resolve("release")) && madeBy.equals(releaseLines(j)))
                    .findFirst().orElseThrow(() -> new AssertionError("no JDK under /usr/lib/jvm made " + aot));
        }
        Map<String, String> env = userEnv();
        env.put("JAVA_HOME", jdk25.toString());
        Run quiet = run(env, LAUNCHER.toString(), "--version");
        assertThat(quiet.code()).as(quiet.err()).isZero();
        assertThat(quiet.err()).isEmpty();
        assertThat(quiet.out()).startsWith("flowform ").doesNotContain("warning", "error");

        env.put("FLOWFORM_JAVA_OPTS", "-Xlog:class+load=info");
        Run logged = run(env, LAUNCHER.toString(), "--version");
        assertThat(logged.out()).contains("dev.flowform.cli.Main source: shared objects file");

        Map<String, String> java17 = userEnv();
        java17.put("FLOWFORM_JAVA_OPTS", "-Xlog:class+load=info");
        Run seventeen = run(java17, LAUNCHER.toString(), "--version");
        assertThat(seventeen.out()).contains("dev.flowform.cli.Main source: shared objects file");
    }

    /** @return the IMPLEMENTOR and JAVA_RUNTIME_VERSION lines of a Java installation's release file, as the build stamps */
    private static String releaseLines(Path javaHome) {
        try {
            return Files.readAllLines(javaHome.resolve("release")).stream()
                    .filter(l -> l.startsWith("IMPLEMENTOR=") || l.startsWith("JAVA_RUNTIME_VERSION="))
                    .map(l -> l + "\n").reduce("", String::concat);
        } catch (IOException e) {
            return "";
        }
    }

    /** {@code plan --out} of the quickstart, started through a shell as {@code launcher}; it prints how to apply. */
    private Run planOut(Map<String, String> env, String launcher) throws Exception {
        Path qs = dir.resolve("qs");
        if (!Files.isDirectory(qs)) {
            CliFiles.quickstart(qs);
        }
        return run(env, "/bin/sh", "-c", launcher + " plan --dir qs --state-dir st --out 'saved plan.json' --no-color");
    }

    private static String lastLine(String s) {
        String[] lines = s.strip().split("\n");
        return lines[lines.length - 1].strip();
    }

    @Tag("slow")
    @Test
    void printedCommandsNameTheLauncherAsStarted() throws Exception {
        // started as a user in the project folder starts it: target/flowform/bin/flowform
        Files.createSymbolicLink(dir.resolve("target"), DIST.toAbsolutePath().getParent());
        String relative = "target/flowform/bin/flowform";

        Run byPath = planOut(userEnv(), relative.toString());
        assertThat(byPath.code()).as(byPath.err()).isZero();
        assertThat(lastLine(byPath.out())).isEqualTo(relative + " apply 'saved plan.json' --dir qs -e demo --state-dir st");

        Map<String, String> onPath = userEnv();
        onPath.put("PATH", LAUNCHER.toAbsolutePath().getParent() + File.pathSeparator + onPath.get("PATH"));
        Run byName = planOut(onPath, "flowform");
        assertThat(byName.code()).as(byName.err()).isZero();
        assertThat(lastLine(byName.out())).isEqualTo("flowform apply 'saved plan.json' --dir qs -e demo --state-dir st");
        Files.delete(dir.resolve("target"));
    }

    @Tag("slow")
    @Test
    void theApplyCommandItPrintsRunsAsPrinted() throws Exception {
        Map<String, String> onPath = userEnv();
        onPath.put("PATH", LAUNCHER.toAbsolutePath().getParent() + File.pathSeparator + onPath.get("PATH"));
        Run plan = planOut(onPath, "flowform");
        assertThat(plan.code()).as(plan.err()).isZero();
        String printed = lastLine(plan.out());
        assertThat(printed).startsWith("flowform apply ");

        Run apply = run(onPath, "/bin/sh", "-c", printed);
        assertThat(apply.code()).as(apply.out() + apply.err()).isZero();

        Run after = run(onPath, "/bin/sh", "-c", "flowform plan --dir qs --state-dir st -e demo --detailed-exitcode --no-color");
        assertThat(after.code()).as(after.out() + after.err()).isZero();
        assertThat(after.out()).contains("No changes.");
    }
}
