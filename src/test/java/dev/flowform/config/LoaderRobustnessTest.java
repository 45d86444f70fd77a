package dev.flowform.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.flowform.config.syntax.JsonSourceParser;
import dev.flowform.config.syntax.ParsedFile;
import dev.flowform.diag.Diagnostic;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Feeds hundreds of damaged variants of the {@code realistic} example to the loader (fixed seed, so
 * failures reproduce): truncations, byte flips, value type swaps and structural oddities. Nothing may
 * throw, nothing may be an internal error, and every error must carry a location inside the files,
 * except the few that are about the command line or the folder as a whole.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class LoaderRobustnessTest {

    private static final long SEED = 20_260_830L;

    /** Errors that are legitimately not tied to a place in a file. */
    private static final Set<String> SOURCELESS = Set.of(
            "No environment declared", "No environment selected", "Unknown environment",
            "Value for undeclared variable", "Invalid value for input variable", "Invalid --var");

    private static final Pattern STRING_VALUE = Pattern.compile(":\\s*(\"(?:[^\"\\\\]|\\\\.)*\")");
    private static final Pattern NUMBER_OR_BOOL = Pattern.compile(":\\s*(-?\\d+(?:\\.\\d+)?|true|false)");
    private static final String[] REPLACEMENTS = {
        "123", "-1", "0.5", "1e400", "123456789012345678901234567890", "true", "null", "[]", "{}", "[1, [2, [3]]]",
        "{\"//\": 1, \"a\": {\"b\": null}}", "\"\"", "\"${var.nope}\"", "\"${var.replicas}\"", "\"${var.topics}\"",
        "\"${var.source_password}${var.topics}\"", "\"${local.x}\"", "\"$${var.x}\"", "\"${\"", "\"}\"", "\"\\u0000\"",
        "\"😀 ünïcödé\"", "\"${secrets:a:b}\"", "\"UPPER_case\"", "\"adopt\"", "\"enabled\"", "\"read_uncommitted\""};

    private static final String JSON_CHARS = "{}[]\":,0123456789.eE-+ntrufals \n\\u";

    @TempDir
    Path dir;

    private final Map<String, String> originals = new LinkedHashMap<>();
    private int checked;

    @Test
    void should_never_throw_and_always_locate_errors() throws IOException {
        Path example = Fixtures.example("realistic");
        for (String name : List.of("environments.flow.json", "main.flow.json", "variables.flow.json")) {
            originals.put(name, Files.readString(example.resolve(name), StandardCharsets.UTF_8));
        }
        Files.createDirectories(dir.resolve("seed"));
        Random random = new Random(SEED);
        List<String> names = List.copyOf(originals.keySet());
        int loaded = 0;
        int failed = 0;

        for (String name : names) {
            byte[] bytes = originals.get(name).getBytes(StandardCharsets.UTF_8);
            int step = Math.max(1, bytes.length / 60);
            for (int cut = 0; cut < bytes.length; cut += step) {
                byte[] truncated = java.util.Arrays.copyOf(bytes, cut);
                if (check(name, truncated, random)) {
                    loaded++;
                } else {
                    failed++;
                }
            }
        }
        for (int i = 0; i < 120; i++) {
            String name = names.get(random.nextInt(names.size()));
            byte[] bytes = originals.get(name).getBytes(StandardCharsets.UTF_8);
            int flips = 1 + random.nextInt(4);
            for (int f = 0; f < flips; f++) {
                int at = random.nextInt(bytes.length);
                bytes[at] = random.nextInt(3) == 0 ? (byte) "{}[]\",:$\\".charAt(random.nextInt(9)) : (byte) random.nextInt(256);
            }
            if (check(name, bytes, random)) {
                loaded++;
            } else {
                failed++;
            }
        }
        for (int i = 0; i < 120; i++) {
            String name = names.get(random.nextInt(names.size()));
            String text = swapValue(originals.get(name), random);
            if (check(name, text.getBytes(StandardCharsets.UTF_8), random)) {
                loaded++;
            } else {
                failed++;
            }
        }
        for (String oddity : oddities()) {
            if (check("main.flow.json", oddity.getBytes(StandardCharsets.UTF_8), random)) {
                loaded++;
            } else {
                failed++;
            }
        }

        assertThat(checked).isGreaterThanOrEqualTo(400);
        assertThat(loaded).as("some variants still load").isPositive();
        assertThat(failed).as("most variants fail").isGreaterThan(loaded);
    }

    @Test
    void should_turn_random_bytes_into_one_located_syntax_error_or_a_tree() {
        Random random = new Random(SEED);
        for (int i = 0; i < 300; i++) {
            byte[] bytes = new byte[random.nextInt(200)];
            for (int b = 0; b < bytes.length; b++) {
                bytes[b] = random.nextBoolean() ? (byte) JSON_CHARS.charAt(random.nextInt(JSON_CHARS.length()))
                        : (byte) random.nextInt(256);
            }
            ParsedFile[] parsed = new ParsedFile[1];
            assertThatCode(() -> parsed[0] = JsonSourceParser.parse("fuzz.flow.json", null, bytes)).doesNotThrowAnyException();
            if (parsed[0].root() == null) {
                assertThat(parsed[0].diagnostics().list()).singleElement()
                        .satisfies(d -> assertThat(d.range()).as(Fixtures.line(d)).isNotNull());
            } else {
                assertThat(parsed[0].diagnostics().isEmpty()).isTrue();
            }
        }
    }

    /** Writes the variant over the original, loads, checks the invariants. @return true when it loaded */
    private boolean check(String name, byte[] content, Random random) throws IOException {
        for (Map.Entry<String, String> f : originals.entrySet()) {
            Files.writeString(dir.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
        }
        Files.write(dir.resolve(name), content);
        Map<String, String> vars = random.nextInt(4) == 0 ? Map.of("source_password", "pw", "replicas", "x" + random.nextInt(3))
                : Map.of();
        String environment = random.nextInt(5) == 0 ? null : "demo";
        String variant = name + " (" + content.length + " bytes): " + new String(content, StandardCharsets.UTF_8);

        LoadResult[] result = new LoadResult[1];
        assertThatCode(() -> result[0] = new ConfigLoader().load(dir, environment, vars)).as(variant).doesNotThrowAnyException();
        checked++;
        for (Diagnostic d : result[0].diagnostics()) {
            assertThat(d.summary()).as(variant).doesNotStartWith("Internal error");
            if (!d.isError()) {
                continue;
            }
            if (d.range() == null) {
                assertThat(SOURCELESS).as(Fixtures.line(d) + "\nin " + variant).contains(d.summary());
                continue;
            }
            assertThat(originals).as(Fixtures.line(d)).containsKey(d.range().filename());
            String text = d.range().filename().equals(name) ? new String(content, StandardCharsets.UTF_8)
                    : originals.get(d.range().filename());
            long lines = text.lines().count() + 1;
            assertThat(d.range().start().line()).as(Fixtures.line(d)).isBetween(1, (int) lines);
            assertThat(d.range().start().column()).as(Fixtures.line(d)).isPositive();
            assertThat(d.range().end()).as(Fixtures.line(d)).isGreaterThanOrEqualTo(d.range().start());
        }
        assertThat(result[0].configuration() == null).as(variant).isEqualTo(result[0].diagnostics().hasErrors());
        return result[0].configuration() != null;
    }

    private static String swapValue(String text, Random random) {
        Pattern pattern = random.nextBoolean() ? STRING_VALUE : NUMBER_OR_BOOL;
        List<int[]> spans = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            spans.add(new int[] {m.start(1), m.end(1)});
        }
        if (spans.isEmpty()) {
            return text;
        }
        int[] span = spans.get(random.nextInt(spans.size()));
        String replacement = REPLACEMENTS[random.nextInt(REPLACEMENTS.length)];
        return text.substring(0, span[0]) + replacement + text.substring(span[1]);
    }

    private static List<String> oddities() {
        String env = "\"environment\": {\"demo\": {\"namespace\": \"kafka\"}}";
        return List.of(
                "{" + env + ", \"connect_cluster\": {\"c\": {\"spec\": " + "[".repeat(70) + "]".repeat(70) + "}}}",
                "{" + env + ", \"connect_cluster\": {\"c\": {\"bootstrap_servers\": \"k\", \"spec\": {\"a\": "
                        + "{\"b\":".repeat(60) + "1" + "}".repeat(60) + "}}}}",
                "{" + env + ", \"connect_cluster\": {\"c\": {\"replicas\": 1e999999999, \"bootstrap_servers\": \"k\"}}}",
                "{" + env + ", \"connect_cluster\": {\"c\": {\"replicas\": -1e-999999999, \"bootstrap_servers\": \"k\"}}}",
                "{" + env + ", \"connect_cluster\": {\"c\": {\"config\": {\"n\": 1e999999999}, \"bootstrap_servers\": \"k\"}}}",
                "{" + env + ", \"connect_cluster\": {\"\": {}, \"//\": {}, \"a\": [], \"b\": [1], \"c\": null}}",
                "{" + env + ", \"replication_flow\": {\"f\": {\"connect_cluster\": [], \"source\": [1], \"target\": \"x\"}}}",
                "{" + env + ", \"variable\": {\"v\": {\"type\": \"map(list(map(string)))\", \"default\": {\"a\": [{\"b\": 1}]}}}}",
                "{" + env + ", \"variable\": {\"v\": {\"type\": \"list(\", \"default\": 1}}}",
                "{" + env + ", \"variable\": {\"\u00e9t\u00e9\": {}}}",
                "{\"environment\": {\"../../etc\": {}}}",
                "{\"environment\": [], \"variable\": [[]], \"connect_cluster\": [{\"x\": []}]}",
                "{\"//\": {\"anything\": [1, 2]}, \"//\": 3}",
                "{" + env + ", \"environment\": {\"demo\": {\"kubernetes\": {\"embedded\": {\"seed\": \"\\u0000\"}}}}}",
                "{\"environment\": {\"demo\": {\"kubernetes\": [{\"embedded\": [{}, {}]}, {}], \"variables\": [1]}}}",
                "{" + env + ", \"connect_cluster\": {\"c\": {\"bootstrap_servers\": \"" + "${".repeat(2000) + "\"}}}",
                "{" + env + ", \"connect_cluster\": {\"" + "k".repeat(100_000) + "\": {}}}");
    }
}
