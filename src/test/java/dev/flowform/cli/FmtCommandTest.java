package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.Formatter;
import dev.flowform.config.syntax.JsonSourceParser;
import dev.flowform.config.syntax.ParsedFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code flowform fmt}: idempotent on every checked-in configuration, exit codes, --check, --diff, --recursive. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class FmtCommandTest {

    @TempDir
    Path tmp;

    @Test
    void formatting_twice_equals_formatting_once_on_every_example_and_test_config() throws IOException {
        List<Path> files = new ArrayList<>();
        for (String root : List.of("examples", "modules", "src/test/resources")) {
            try (Stream<Path> walk = Files.walk(Path.of(root))) {
                walk.filter(p -> p.toString().endsWith(".flow.json") || p.toString().endsWith("vars.json")).sorted()
                        .forEach(files::add);
            }
        }
        int formatted = 0;
        for (Path f : files) {
            ParsedFile parsed = JsonSourceParser.parse(f.toString(), null, Files.readAllBytes(f));
            if (!parsed.ok()) {
                continue;
            }
            String once = Formatter.format(parsed.root());
            ParsedFile again = JsonSourceParser.parseText(f.toString(), null, once);
            assertThat(again.ok()).as("%s formats to valid JSON", f).isTrue();
            assertThat(Formatter.format(again.root())).as("%s", f).isEqualTo(once);
            assertThat(shape(again.root())).as("%s keeps every key, value, comment and the order", f)
                    .isEqualTo(shape(parsed.root()));
            formatted++;
        }
        assertThat(formatted).as("configurations checked").isGreaterThan(90);
    }

    /** @return the tree as text that ignores layout: kinds, keys in order (repeats and comments kept), exact literals */
    private static String shape(ConfigNode n) {
        if (n instanceof ConfigNode.ObjectNode o) {
            StringBuilder sb = new StringBuilder("{");
            o.entries().forEach(e -> sb.append('<').append(e.key()).append('>').append(shape(e.value())).append(';'));
            return sb.append('}').toString();
        }
        if (n instanceof ConfigNode.ArrayNode a) {
            StringBuilder sb = new StringBuilder("[");
            a.items().forEach(i -> sb.append(shape(i)).append(';'));
            return sb.append(']').toString();
        }
        if (n instanceof ConfigNode.StringNode s) {
            return "s<" + s.value() + ">";
        }
        if (n instanceof ConfigNode.NumberNode num) {
            return "n<" + num.literal() + ">";
        }
        return n.kind() + (n instanceof ConfigNode.BoolNode b ? "<" + b.value() + ">" : "");
    }

    @Test
    void the_examples_and_modules_are_formatted() {
        CliRunner cli = CliRunner.fast();
        assertThat(cli.run("fmt", "--check", "--recursive", "examples").exitCode()).isZero();
        CliRunner.Result modules = cli.run("fmt", "--check", "--recursive", "modules");
        assertThat(modules.exitCode()).as("%s", modules).isZero();
        assertThat(modules.out()).isEmpty();
    }

    private static final String MESSY = "{\"//\":\"keep me\",  \"environment\":{\"demo\":{\"namespace\":\"kafka\"}},\r\n"
            + "\"connect_cluster\":{\"mm2\":{\"replicas\":1.50,\"bootstrap_servers\":\"k:9092\",\"config\":{}},"
            + "\"mm2\":{\"topics\":[\"a\",\"b\"],\"x\":[{\"y\":null}],\"e\":\"\\u00e9\\t\\u2028\"}}}";

    private static final String TIDY = """
            {
              "//": "keep me",
              "environment": {
                "demo": {
                  "namespace": "kafka"
                }
              },
              "connect_cluster": {
                "mm2": {
                  "replicas": 1.50,
                  "bootstrap_servers": "k:9092",
                  "config": {}
                },
                "mm2": {
                  "topics": ["a", "b"],
                  "x": [
                    {
                      "y": null
                    }
                  ],
                  "e": "é\\t\\u2028"
                }
              }
            }
            """;

    @Test
    void check_reports_without_writing_diff_shows_and_plain_fmt_rewrites() throws IOException {
        Path dir = tmp.resolve("conf");
        Files.createDirectories(dir.resolve("sub"));
        Path file = dir.resolve("main.flow.json");
        Files.writeString(file, MESSY);
        Files.writeString(dir.resolve("sub/other.flow.json"), "{ }");
        Files.writeString(dir.resolve("notes.json"), "{ }");
        CliRunner cli = CliRunner.fast();

        CliRunner.Result check = cli.run("fmt", "--check", "--diff", dir.toString());
        assertThat(check.exitCode()).as("%s", check).isEqualTo(FmtCommand.EXIT_WOULD_CHANGE);
        String name = file.toString().replace('\\', '/');
        String shown = name.replaceFirst("^/", "");
        assertThat(check.out()).startsWith(name + "\n--- old/" + shown + "\n+++ new/" + shown + "\n@@ -1,2 +1,24 @@\n")
                .contains("+  \"//\": \"keep me\",\n").doesNotContain("other.flow.json");
        assertThat(Files.readString(file)).isEqualTo(MESSY);

        CliRunner.Result write = cli.run("fmt", "--recursive", dir.toString());
        assertThat(write.exitCode()).as("%s", write).isZero();
        assertThat(write.out()).isEqualTo(name + "\n" + dir.resolve("sub/other.flow.json").toString().replace('\\', '/') + "\n");
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).isEqualTo(TIDY);
        assertThat(Files.readString(dir.resolve("sub/other.flow.json"))).isEqualTo("{}\n");
        assertThat(Files.readString(dir.resolve("notes.json"))).isEqualTo("{ }");

        CliRunner.Result again = cli.run("fmt", "--check", "--recursive", dir.toString());
        assertThat(again.exitCode()).isZero();
        assertThat(again.out()).isEmpty();
    }

    @Test
    void a_parse_error_exits_2_and_points_at_the_error_while_other_files_are_still_formatted() throws IOException {
        Path dir = tmp.resolve("conf");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("a.flow.json"), "{\"x\": [1, 2,]}\n");
        Files.writeString(dir.resolve("b.flow.json"), "{\"y\":1}");

        CliRunner.Result r = CliRunner.fast().run("fmt", "--no-color", dir.toString());

        assertThat(r.exitCode()).isEqualTo(FmtCommand.EXIT_PARSE_ERROR);
        assertThat(r.err()).contains("Error: Invalid JSON syntax", "a.flow.json:1:12", "1 | {\"x\": [1, 2,]}",
                "Trailing comma before \"]\"");
        assertThat(Files.readString(dir.resolve("b.flow.json"))).isEqualTo("{\n  \"y\": 1\n}\n");
    }

    @Test
    void a_missing_path_is_an_error_and_a_file_named_explicitly_is_formatted() throws IOException {
        CliRunner cli = CliRunner.fast();
        CliRunner.Result missing = cli.run("fmt", tmp.resolve("nope").toString());
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("No file or folder at");

        Path file = tmp.resolve("vars.json");
        Files.writeString(file, "{\"a\":[]}");
        assertThat(cli.run("fmt", "--check", file.toString()).exitCode()).isEqualTo(FmtCommand.EXIT_WOULD_CHANGE);
        assertThat(cli.run("fmt", file.toString()).exitCode()).isZero();
        assertThat(Files.readString(file)).isEqualTo("{\n  \"a\": []\n}\n");
    }

    @Test
    void a_folder_without_files_is_a_warning_that_names_recursive_when_its_subfolders_hold_some() throws IOException {
        Path parent = tmp.resolve("parent");
        Files.createDirectories(parent.resolve("sub"));
        Files.writeString(parent.resolve("sub").resolve("main.flow.json"), "{\"a\":[]}");

        CliRunner.Result flat = CliRunner.fast().run("fmt", "--check", "--no-color", parent.toString());
        Files.createDirectories(tmp.resolve("nothing"));
        CliRunner.Result nothing = CliRunner.fast().run("fmt", "--no-color", tmp.resolve("nothing").toString());

        assertThat(flat.exitCode()).as("as Terraform's fmt: nothing to check is no failure").isZero();
        assertThat(FaultSuiteTest.flat(flat.out())).contains("Warning: No configuration files in " + parent,
                "its subfolders hold 1: add --recursive to check them.");
        assertThat(CliRunner.fast().run("fmt", "--check", "--recursive", parent.toString()).exitCode())
                .isEqualTo(FmtCommand.EXIT_WOULD_CHANGE);
        assertThat(nothing.exitCode()).isZero();
        assertThat(FaultSuiteTest.flat(nothing.out())).contains("No configuration files in", "nothing to format.");
    }

    @Test
    void hidden_folders_are_skipped_and_long_arrays_break_into_lines() throws IOException {
        Path dir = tmp.resolve("conf");
        Files.createDirectories(dir.resolve(".terraform"));
        Files.writeString(dir.resolve(".terraform/x.flow.json"), "{ }");
        String long60 = "\"" + "t".repeat(60) + "\"";
        Files.writeString(dir.resolve("main.flow.json"), "{\"topics\": [" + long60 + ", " + long60 + "]}");

        assertThat(CliRunner.fast().run("fmt", "--recursive", dir.toString()).exitCode()).isZero();

        assertThat(Files.readString(dir.resolve(".terraform/x.flow.json"))).isEqualTo("{ }");
        assertThat(Files.readString(dir.resolve("main.flow.json")))
                .isEqualTo("{\n  \"topics\": [\n    " + long60 + ",\n    " + long60 + "\n  ]\n}\n");
    }
}
