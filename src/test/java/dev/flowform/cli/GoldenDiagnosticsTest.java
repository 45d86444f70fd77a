package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.sim.SimSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The golden diagnostics suite: every folder under {@code src/test/resources/golden-diagnostics/}
 * is one invalid (or warning-only) configuration. {@code flowform validate} runs on it and its
 * exit code, stdout and stderr must equal the folder's {@code expected.txt} exactly.
 *
 * <p>A case folder holds the configuration files (module folders and seeds as subfolders), and
 * optionally {@code args} (extra command-line arguments, one per line; {@code $CASE} stands for
 * the case folder) and {@code env} ({@code NAME=value} lines: the process environment, for
 * {@code FLOWFORM_VAR_*}). The case folder's absolute path is written as {@code $CASE} in the
 * expected output, so it does not depend on the checkout.
 *
 * <p>Run with {@code -Dgolden.update=true} to rewrite every {@code expected.txt} from the current
 * output (then review the diff before committing).
 */
class GoldenDiagnosticsTest {

    /** Root of the cases, relative to the project folder (where Maven runs tests). */
    static final Path ROOT = Path.of("src", "test", "resources", "golden-diagnostics");

    private static final boolean UPDATE = Boolean.getBoolean("golden.update");
    private static final int MIN_CASES = 40;

    static List<Path> cases() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT)) {
            return dirs.filter(Files::isDirectory).sorted().toList();
        }
    }

    @Test
    void there_are_enough_invalid_cases() throws IOException {
        long invalid = 0;
        for (Path c : cases()) {
            Path expected = c.resolve("expected.txt");
            if (Files.exists(expected) && Files.readString(expected).contains("\nexit: 1\n")) {
                invalid++;
            }
        }
        assertThat(invalid).as("cases that exit 1").isGreaterThanOrEqualTo(MIN_CASES);
    }

    @TestFactory
    Stream<DynamicTest> every_case_renders_exactly_as_expected() throws IOException {
        return cases().stream().map(c -> DynamicTest.dynamicTest(c.getFileName().toString(), () -> check(c)));
    }

    private static void check(Path dir) throws IOException {
        List<String> args = new ArrayList<>(List.of("validate", "--dir", dir.toString(), "--no-color"));
        args.addAll(lines(dir.resolve("args"), dir));
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : lines(dir.resolve("env"), dir)) {
            int eq = line.indexOf('=');
            env.put(line.substring(0, eq), line.substring(eq + 1));
        }
        Run human = run(env, args);
        String actual = "$ flowform " + String.join(" ", args).replace(dir.toString(), "$CASE") + "\n"
                + "exit: " + human.code() + "\n"
                + "--- stdout\n" + human.out().replace(dir.toAbsolutePath().toString(), "$CASE")
                .replace(dir.toString(), "$CASE")
                + "--- stderr\n" + human.err().replace(dir.toAbsolutePath().toString(), "$CASE")
                .replace(dir.toString(), "$CASE");
        Path expectedFile = dir.resolve("expected.txt");
        if (UPDATE) {
            Files.writeString(expectedFile, actual, StandardCharsets.UTF_8);
        }
        assertThat(expectedFile).as("expected.txt of %s (run with -Dgolden.update=true to create it)", dir).exists();
        assertThat(actual).isEqualTo(Files.readString(expectedFile, StandardCharsets.UTF_8));
        assertThat(human.code()).as("validate exits 0 or 1").isIn(0, 1);
        assertThat(human.out() + human.err()).as("a golden case reports something").containsAnyOf("Error: ", "Warning: ");
        assertThat(human.err()).doesNotContain("This is a bug in flowform");

        List<String> jsonArgs = new ArrayList<>(args);
        jsonArgs.add("--json");
        Run json = run(env, jsonArgs);
        JsonNode doc = JsonMapper.builder().build().readTree(json.out());
        assertThat(json.code()).as("--json exits like the human form").isEqualTo(human.code());
        assertThat(doc.get("valid").asBoolean()).isEqualTo(human.code() == 0);
        assertThat(doc.get("error_count").asInt()).isEqualTo(count(human, "Error: "));
        assertThat(doc.get("warning_count").asInt()).isEqualTo(count(human, "Warning: "));
        assertThat(doc.get("diagnostics").size()).isEqualTo(doc.get("error_count").asInt() + doc.get("warning_count").asInt());
    }

    private static int count(Run run, String head) {
        String all = run.out() + run.err();
        return (int) all.lines().filter(l -> l.startsWith(head)).count();
    }

    private record Run(int code, String out, String err) {
    }

    private static Run run(Map<String, String> env, List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine(new CliContext(Clock.systemUTC(), Prompter.system(), env, SimSettings.fast(),
                Duration.ofSeconds(10)));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    private static List<String> lines(Path file, Path dir) throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isEmpty())
                .map(l -> l.replace("$CASE", dir.toString())).toList();
    }
}
