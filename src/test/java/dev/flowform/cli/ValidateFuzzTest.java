package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.Formatter;
import dev.flowform.config.syntax.JsonSourceParser;
import dev.flowform.config.syntax.ParsedFile;
import dev.flowform.diag.SourcePos;
import dev.flowform.diag.SourceRange;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Feeds thousands of mutated configurations to {@code flowform validate --json} (fixed seed, so a
 * failure reproduces) and checks the contract of every run: no exception escapes (no "bug" message,
 * no internal error), the exit code is 0 or 1 and agrees with the JSON, and every error that comes
 * from a file is located in an existing file with a source snippet.
 *
 * <p>Mutations: truncated and byte-damaged JSON, random unicode (controls, bidi, surrogates,
 * emoji), values of the wrong type, huge and tiny numbers, nesting around the depth limit,
 * duplicated, deleted and renamed keys, missing module files and folders, missing seed folders,
 * module source cycles, damaged and missing variable files, and FLOWFORM_VAR_ values. The corpus is
 * the multi-environment example with its module (validated for one environment, which keeps a run
 * short), the quickstart, and a small module-using configuration.
 */
class ValidateFuzzTest {

    private static final long SEED = 20_261_130L;
    private static final int RUNS = 5_200;

    /** Errors that are about the command line or a folder as a whole, not a place in a file. */
    private static final Set<String> SOURCELESS = Set.of(
            "No environment declared", "No environment selected", "Unknown environment", "Value for undeclared variable",
            "Invalid value for input variable", "Invalid --var", "Variable file not found", "No configuration files",
            "Configuration folder not found");

    private static final String JSON_CHARS = "{}[]\":,0123456789.eE-+ntrufals \n\t\\u$";
    private static final String[] TEMPLATES = {
        "${var.nope}", "${local.nope}", "${module.nope.x}", "${module.orders.source_connector}", "${environment.name}",
        "${environment.zone}", "$${var.x}", "${", "}", "${var.", "${secrets:ns/s:k}", "${file:/x:y}", "${var.dc1_bootstrap}",
        "${local.dc1}", "${var.connect_replicas}", "${local.dc1.config}", "${var.heartbeats}-x", "${upper(var.x)}"};

    private static final String SMALL_ROOT = """
            {
              "variable": {"replicas": {"type": "number", "default": 2, "validation": {"condition": "${var.replicas >= 1}", "error_message": "x"}},
                           "kafka": {"type": "object({bootstrap = string, tls = optional(bool)})", "default": {"bootstrap": "k:9092"}}},
              "locals": {"cluster": "mm2", "name": "${module.flow.name}"},
              "environment": {"demo": {"namespace": "kafka", "variables": {"replicas": 3}}},
              "connect_cluster": {"mm2": {"bootstrap_servers": "${var.kafka.bootstrap}", "replicas": "${var.replicas}"}},
              "module": {"flow": {"source": "./small", "name": "orders", "cluster": "${local.cluster}"}},
              "output": {"name": {"value": "${local.name}"}}
            }
            """;
    private static final String SMALL_MODULE = """
            {
              "variable": {"name": {"type": "string"}, "cluster": {"type": "string"}},
              "replication_flow": {
                "this": {
                  "name": "${var.name}", "connect_cluster": "${var.cluster}", "isolation_level": "read_committed",
                  "source": {"alias": "a", "bootstrap_servers": "a:9092"}, "target": {"alias": "b", "bootstrap_servers": "b:9092"},
                  "config": {"topics.exclude": ".*internal"}
                }
              },
              "output": {"name": {"value": "${var.name}-source"}}
            }
            """;

    @TempDir
    Path tmp;

    private final Random random = new Random(SEED);
    private final JsonMapper json = JsonMapper.builder().build();
    private final Map<String, String> processEnv = new HashMap<>();
    private CommandLine cli;
    private StringWriter out;
    private StringWriter err;
    private Path work;
    private Path inMemory;
    private final Map<String, String> corpus = new TreeMap<>();
    private final Map<String, Integer> exitCodes = new TreeMap<>();
    private final java.util.Set<String> touched = new java.util.TreeSet<>();
    private final java.util.Set<String> created = new java.util.TreeSet<>();
    private static final List<String> SEEDS = List.of("examples/multi-env/seeds/staging", "examples/multi-env/seeds/prod",
            "examples/quickstart/seed");

    @Test
    void validate_never_throws_exits_0_or_1_and_locates_every_file_error() throws IOException {
        readCorpus();
        out = new StringWriter();
        err = new StringWriter();
        cli = Main.commandLine(new CliContext(Clock.systemUTC(), Prompter.system(), processEnv, null, Duration.ofSeconds(10)));
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        work = workFolder();
        layout();
        touched.addAll(corpus.keySet());
        long start = System.nanoTime();
        for (int run = 0; run < RUNS; run++) {
            one(run);
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("ValidateFuzzTest: %d mutated configurations in %d ms (seed %d), exit codes %s%n", RUNS, ms, SEED,
                exitCodes);
        assertThat(exitCodes.keySet()).containsExactlyInAnyOrder("0", "1");
    }

    /**
     * @return where the runs write their files: a folder in memory ({@code /dev/shm}) where the
     *     machine has one, since thousands of small writes to a busy disk would dominate the run time;
     *     else the test's temporary folder
     */
    private Path workFolder() throws IOException {
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            inMemory = Files.createTempDirectory(shm, "flowform-fuzz-");
            return inMemory;
        }
        return tmp.resolve("work");
    }

    @AfterEach
    void deleteInMemoryFolder() throws IOException {
        if (inMemory == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(inMemory)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private void readCorpus() throws IOException {
        Path example = Path.of("examples", "multi-env");
        for (String f : List.of("main.flow.json", "environments.flow.json")) {
            corpus.put("examples/multi-env/" + f, Files.readString(example.resolve(f)));
        }
        try (Stream<Path> files = Files.list(Path.of("modules", "mm2-eos-flow"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".flow.json")).sorted().toList()) {
                corpus.put("modules/mm2-eos-flow/" + f.getFileName(), Files.readString(f));
            }
        }
        corpus.put("examples/quickstart/main.flow.json", Files.readString(Path.of("examples", "quickstart", "main.flow.json")));
        corpus.put("examples/small/main.flow.json", SMALL_ROOT);
        corpus.put("examples/small/small/main.flow.json", SMALL_MODULE);
    }

    /** Lays out the corpus in the work folder: the example folders, the modules and the seed folders. */
    private void layout() throws IOException {
        for (Map.Entry<String, String> f : corpus.entrySet()) {
            Path p = work.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            write(p, f.getValue());
        }
        for (String seed : SEEDS) {
            Files.createDirectories(work.resolve(seed));
        }
    }

    /** Puts back what the last run changed: deletes the files it added, rewrites the ones it changed, recreates seeds. */
    private void restore() throws IOException {
        for (String extra : created) {
            Files.deleteIfExists(work.resolve(extra));
        }
        created.clear();
        for (String file : touched) {
            write(work.resolve(file), corpus.get(file));
        }
        touched.clear();
        for (String seed : SEEDS) {
            if (!Files.isDirectory(work.resolve(seed))) {
                Files.createDirectories(work.resolve(seed));
            }
        }
    }

    /** Writes a file the corpus does not have; the next run deletes it. */
    private void create(String file, String text) throws IOException {
        created.add(file);
        write(work.resolve(file), text);
    }

    /** Writes text as UTF-8; unpaired surrogates become '?' (what a broken editor might leave). */
    private static void write(Path path, String text) throws IOException {
        Files.write(path, text.getBytes(StandardCharsets.UTF_8));
    }

    private void one(int run) throws IOException {
        restore();
        processEnv.clear();
        List<String> args = new ArrayList<>(List.of("validate", "--json"));
        int which = random.nextInt(10);
        String dir;
        String file;
        if (which < 3) {
            dir = "examples/multi-env";
            file = pick("examples/multi-env/main.flow.json", "examples/multi-env/environments.flow.json",
                    "modules/mm2-eos-flow/main.flow.json", "modules/mm2-eos-flow/variables.flow.json",
                    "modules/mm2-eos-flow/outputs.flow.json");
            if (random.nextInt(4) > 0) {
                args.addAll(List.of("-e", random.nextBoolean() ? "staging" : "prod"));
            }
        } else if (which < 7) {
            dir = "examples/small";
            file = pick("examples/small/main.flow.json", "examples/small/small/main.flow.json");
        } else {
            dir = "examples/quickstart";
            file = "examples/quickstart/main.flow.json";
        }
        mutate(run, file, dir, args);
        args.addAll(List.of("--dir", work.resolve(dir).toString()));
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        int code = cli.execute(args.toArray(String[]::new));
        check(run, code, args);
    }

    @SafeVarargs
    private <T> T pick(T... options) {
        return options[random.nextInt(options.length)];
    }

    private void mutate(int run, String file, String dir, List<String> args) throws IOException {
        Path path = work.resolve(file);
        touched.add(file);
        String text = corpus.get(file);
        switch (random.nextInt(12)) {
            case 0 -> write(path, text.substring(0, random.nextInt(text.length() + 1)));
            case 1 -> Files.write(path, damageBytes(text.getBytes(StandardCharsets.UTF_8)));
            case 2 -> write(path, insertUnicode(text));
            case 3, 4, 5, 6 -> write(path, mutateTree(text, 1 + random.nextInt(3)));
            case 7 -> missingFiles(dir);
            case 8 -> cycle(dir);
            case 9 -> varFile(args);
            case 10 -> environmentVariables();
            default -> {
                write(path, mutateTree(text, 1));
                missingFiles(dir);
            }
        }
    }

    private byte[] damageBytes(byte[] bytes) {
        byte[] copy = bytes.clone();
        for (int i = 0, n = 1 + random.nextInt(4); i < n && copy.length > 0; i++) {
            int at = random.nextInt(copy.length);
            copy[at] = random.nextBoolean() ? (byte) random.nextInt(256) : (byte) JSON_CHARS.charAt(random.nextInt(JSON_CHARS.length()));
        }
        return copy;
    }

    private String insertUnicode(String text) {
        StringBuilder sb = new StringBuilder(text);
        for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
            sb.insert(random.nextInt(sb.length() + 1), randomString(1 + random.nextInt(6)));
        }
        return sb.toString();
    }

    private String randomString(int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int cp = switch (random.nextInt(9)) {
                case 0 -> random.nextInt(0x20);
                case 1 -> 0x202A + random.nextInt(5);
                case 2 -> 0x1F600 + random.nextInt(80);
                case 3 -> 0x0300 + random.nextInt(0x70);
                case 4 -> 0x4E00 + random.nextInt(0x5000);
                case 5 -> 0xD800 + random.nextInt(0x800);
                case 6 -> 0x200B + random.nextInt(5);
                case 7 -> JSON_CHARS.charAt(random.nextInt(JSON_CHARS.length()));
                default -> 0x20 + random.nextInt(0x5F);
            };
            if (Character.isSurrogate((char) cp) && cp <= 0xFFFF) {
                sb.append((char) cp);
            } else {
                sb.appendCodePoint(cp);
            }
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------------------------------------
    // Mutations of the parsed tree, written back with the formatter

    private String mutateTree(String text, int times) {
        ParsedFile parsed = JsonSourceParser.parseText("x", null, text);
        if (!parsed.ok()) {
            return text;
        }
        ConfigNode root = parsed.root();
        for (int i = 0; i < times; i++) {
            int count = count(root);
            int[] target = {random.nextInt(count)};
            root = rewrite(root, target);
        }
        return root instanceof ConfigNode.ObjectNode o ? Formatter.format(o) : Formatter.formatValue(root);
    }

    private static int count(ConfigNode n) {
        int c = 1;
        if (n instanceof ConfigNode.ObjectNode o) {
            for (ConfigNode.Entry e : o.entries()) {
                c += count(e.value());
            }
        } else if (n instanceof ConfigNode.ArrayNode a) {
            for (ConfigNode item : a.items()) {
                c += count(item);
            }
        }
        return c;
    }

    /** Rewrites the node at pre-order index {@code target[0]} (counting down as it walks). */
    private ConfigNode rewrite(ConfigNode n, int[] target) {
        if (target[0]-- == 0) {
            return changed(n);
        }
        if (n instanceof ConfigNode.ObjectNode o) {
            List<ConfigNode.Entry> entries = new ArrayList<>();
            for (ConfigNode.Entry e : o.entries()) {
                entries.add(new ConfigNode.Entry(e.key(), e.keyRange(), rewrite(e.value(), target)));
            }
            return new ConfigNode.ObjectNode(entries, o.range());
        }
        if (n instanceof ConfigNode.ArrayNode a) {
            List<ConfigNode> items = new ArrayList<>();
            for (ConfigNode item : a.items()) {
                items.add(rewrite(item, target));
            }
            return new ConfigNode.ArrayNode(items, a.range());
        }
        return n;
    }

    private ConfigNode changed(ConfigNode n) {
        if (n instanceof ConfigNode.ObjectNode o && !o.entries().isEmpty() && random.nextInt(3) > 0) {
            List<ConfigNode.Entry> entries = new ArrayList<>(o.entries());
            int i = random.nextInt(entries.size());
            ConfigNode.Entry e = entries.get(i);
            switch (random.nextInt(4)) {
                case 0 -> entries.add(i, e);
                case 1 -> entries.remove(i);
                case 2 -> entries.set(i, new ConfigNode.Entry(typo(e.key()), e.keyRange(), e.value()));
                default -> entries.set(i, new ConfigNode.Entry(e.key(), e.keyRange(), randomValue(0)));
            }
            return new ConfigNode.ObjectNode(entries, o.range());
        }
        return randomValue(0);
    }

    private String typo(String key) {
        if (key.isEmpty() || random.nextInt(4) == 0) {
            return randomString(1 + random.nextInt(8));
        }
        StringBuilder sb = new StringBuilder(key);
        int at = random.nextInt(sb.length());
        if (random.nextBoolean()) {
            sb.deleteCharAt(at);
        } else {
            sb.insert(at, (char) ('a' + random.nextInt(26)));
        }
        return sb.toString();
    }

    private ConfigNode randomValue(int depth) {
        SourceRange r = new SourceRange("x", new SourcePos(1, 1), new SourcePos(1, 1));
        switch (random.nextInt(depth > 3 ? 9 : 13)) {
            case 0:
                return new ConfigNode.NumberNode(BigDecimal.valueOf(random.nextInt(7) - 2), String.valueOf(random.nextInt(7) - 2), r);
            case 1: {
                String huge = pick("1e400", "-1e-400", "123456789012345678901234567890", "9".repeat(900), "1e999999999",
                        "0.1", "-0", "2147483648", "1.5");
                return new ConfigNode.NumberNode(new BigDecimal(huge.length() > 20 && huge.contains("e") ? "1" : huge), huge, r);
            }
            case 2:
                return new ConfigNode.BoolNode(random.nextBoolean(), r);
            case 3:
                return new ConfigNode.NullNode(r);
            case 4:
            case 5:
                return new ConfigNode.StringNode(pick(TEMPLATES) + (random.nextBoolean() ? "" : randomString(3)), r);
            case 6:
            case 7:
                return new ConfigNode.StringNode(pick("own", "adopt", "read_uncommitted", "connector", "required", "mm2",
                        "enabled", "list(string)", "object({a = string})", "./small", "../nope", "../mm2-eos-flow",
                        randomString(1 + random.nextInt(10))), r);
            case 8: {
                int levels = 55 + random.nextInt(20);
                ConfigNode v = new ConfigNode.NumberNode(BigDecimal.ONE, "1", r);
                for (int i = 0; i < levels; i++) {
                    v = random.nextBoolean() ? new ConfigNode.ArrayNode(List.of(v), r)
                            : new ConfigNode.ObjectNode(List.of(new ConfigNode.Entry("k", r, v)), r);
                }
                return v;
            }
            case 9:
            case 10: {
                List<ConfigNode> items = new ArrayList<>();
                for (int i = 0, n = random.nextInt(4); i < n; i++) {
                    items.add(randomValue(depth + 1));
                }
                return new ConfigNode.ArrayNode(items, r);
            }
            default: {
                List<ConfigNode.Entry> entries = new ArrayList<>();
                for (int i = 0, n = random.nextInt(4); i < n; i++) {
                    String key = pick("//", "source", "alias", "bootstrap_servers", "value", "exactly.once.support",
                            "consumer.override.isolation.level", "name", "type", "default", "condition", randomString(4));
                    entries.add(new ConfigNode.Entry(key, r, randomValue(depth + 1)));
                }
                return new ConfigNode.ObjectNode(entries, r);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // File system mutations

    private void missingFiles(String dir) throws IOException {
        touched.add("modules/mm2-eos-flow/variables.flow.json");
        switch (random.nextInt(4)) {
            case 0 -> Files.deleteIfExists(work.resolve("modules/mm2-eos-flow/variables.flow.json"));
            case 1 -> {
                touched.addAll(List.of("modules/mm2-eos-flow/main.flow.json", "modules/mm2-eos-flow/variables.flow.json",
                        "modules/mm2-eos-flow/outputs.flow.json", "examples/small/small/main.flow.json"));
                for (String f : List.of("main.flow.json", "variables.flow.json", "outputs.flow.json")) {
                    Files.deleteIfExists(work.resolve("modules/mm2-eos-flow").resolve(f));
                }
                Files.deleteIfExists(work.resolve("examples/small/small/main.flow.json"));
            }
            case 2 -> {
                Files.deleteIfExists(work.resolve("examples/multi-env/seeds/staging"));
                Files.deleteIfExists(work.resolve("examples/quickstart/seed"));
            }
            default -> create(dir + "/zz.flow.json",
                    "{\"module\": {\"gone\": {\"source\": \"./" + randomString(2).replace("\"", "") + "\"}}}");
        }
    }

    private void cycle(String dir) throws IOException {
        String module = dir.equals("examples/small") ? "examples/small/small" : "modules/mm2-eos-flow";
        String back = pick("../mm2-eos-flow", "./", "../", "../../examples/multi-env", "../small", ".");
        create(module + "/cycle.flow.json",
                "{\"module\": {\"again\": {\"source\": \"" + back + "\", \"name\": \"x\"}}}");
    }

    private void varFile(List<String> args) throws IOException {
        Path vars = work.resolve("vars.json");
        created.add("vars.json");
        if (random.nextInt(4) > 0) {
            String text = pick("{\"connect_replicas\": 2}", "{\"dc1_bootstrap\": [1]}", "{\"replicas\": \"x\"}",
                    "{\"nope\": 1, \"//\": \"c\"}", "[]", "{\"heartbeats\": \"${var.x}\"}", "{\"orders_tasks\": 0}");
            write(vars, random.nextBoolean() ? text : insertUnicode(text));
        }
        args.addAll(List.of("--var-file", vars.toString()));
        if (random.nextBoolean()) {
            args.addAll(List.of("--var", pick("connect_replicas", "replicas", "nope", "", "heartbeats") + "=" + pick("1", "x", "[]",
                    "{\"a\":1}", randomString(3))));
        }
    }

    private void environmentVariables() {
        for (String name : List.of("connect_replicas", "dc1_bootstrap", "heartbeats", "replicas", "kafka", "exactly_once")) {
            if (random.nextBoolean()) {
                processEnv.put("FLOWFORM_VAR_" + name, pick("3", "-1", "true", "x", "{\"bootstrap\": \"k\"}", "[", randomString(4)));
            }
        }
    }

    // ---------------------------------------------------------------------------------------------

    private void check(int run, int code, List<String> args) throws IOException {
        String context = "run " + run + ": flowform " + String.join(" ", args) + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        exitCodes.merge(String.valueOf(code), 1, Integer::sum);
        assertThat(code).as(context).isIn(0, 1);
        assertThat(err.toString()).as(context).doesNotContain("This is a bug").doesNotContain("Exception");
        JsonNode doc = json.readTree(out.toString());
        assertThat(doc.get("valid").asBoolean()).as(context).isEqualTo(code == 0);
        assertThat(doc.get("error_count").asInt() == 0).as(context).isEqualTo(code == 0);
        Map<String, String> seen = new LinkedHashMap<>();
        for (JsonNode d : doc.get("diagnostics")) {
            String summary = d.get("summary").asString();
            assertThat(summary).as(context).doesNotStartWith("Internal error");
            if (!d.get("severity").asString().equals("error")) {
                continue;
            }
            JsonNode range = d.get("range");
            if (range == null) {
                assertThat(SOURCELESS).as("an error without a location: %s\n%s", summary, context).contains(summary);
                continue;
            }
            String filename = range.get("filename").asString();
            Path file = filename.startsWith("/") ? Path.of(filename) : work.resolve(args.get(args.size() - 1)).resolve(filename);
            assertThat(file).as("the file of %s\n%s", summary, context).exists();
            assertThat(d.get("snippet")).as("a snippet for %s\n%s", summary, context).isNotNull();
            seen.put(summary, filename);
        }
    }
}
