package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The CI examples in {@code examples/ci/} are valid YAML with the keys the pipelines rely on, and every
 * {@code flowform ...} command in their scripts is one flowform accepts (each is parsed by the real picocli command
 * line: same subcommands, same flags) and does what the pipeline expects of it: the commands are run in the
 * pipeline's order against the quickstart on the embedded demo cluster, with a temporary state folder, and their
 * exit codes are the ones the scripts branch on ({@code plan --detailed-exitcode}: 2 with changes; 0 once applied).
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class CiWorkflowsTest {

    private static final Path GITHUB = Path.of("examples", "ci", "github-actions.yml");
    private static final Path GITLAB = Path.of("examples", "ci", "gitlab-ci.yml");
    private static final Set<String> SEPARATORS = Set.of(";", "&&", "||", "|", "$(", ")", "then", "else", "do", "if");

    @TempDir
    Path tmp;

    @Test
    void the_github_workflow_plans_pull_requests_and_applies_the_saved_plan_on_merge() throws IOException {
        Map<String, Object> wf = load(GITHUB);
        Map<String, Object> on = map(wf.get("on"));
        assertThat(on).containsKeys("pull_request", "push");
        assertThat(list(map(on.get("push")).get("branches"))).containsExactly("main");
        Map<String, Object> jobs = map(wf.get("jobs"));
        Map<String, Object> apply = map(jobs.get("apply"));
        assertThat(map(apply.get("concurrency"))).containsEntry("group", "flowform-apply-demo")
                .containsEntry("cancel-in-progress", false);
        assertThat(uses(map(jobs.get("plan")))).contains("actions/upload-artifact@v4",
                "marocchino/sticky-pull-request-comment@v2");
        assertThat(uses(apply)).contains("actions/download-artifact@v4");

        List<String> scripts = new ArrayList<>();
        for (String job : List.of("plan", "apply")) {
            for (Object step : list(map(jobs.get(job)).get("steps"))) {
                Object run = map(step).get("run");
                if (run != null) {
                    scripts.add((String) run);
                }
            }
        }
        runInOrder(commands(scripts, strings(map(wf.get("env")))), List.of(
                new Expected("plan --dir", 2, "--out", "--detailed-exitcode"),
                new Expected("plan --dir", 0, "--format", "markdown"),
                new Expected("show", 0, "--format", "markdown"),
                new Expected("apply", 0, "--lock-timeout", "10m"),
                new Expected("plan --dir", 0, "--detailed-exitcode")));
    }

    @Test
    void the_gitlab_pipeline_plans_merge_requests_and_applies_on_the_default_branch() throws IOException {
        Map<String, Object> ci = load(GITLAB);
        assertThat(list(map(ci.get("workflow")).get("rules"))).extracting(r -> map(r).get("if"))
                .contains("$CI_PIPELINE_SOURCE == \"merge_request_event\"");
        Map<String, Object> plan = map(ci.get("plan"));
        Map<String, Object> apply = map(ci.get("apply"));
        assertThat(apply).containsEntry("resource_group", "flowform-demo");
        assertThat(list(map(plan.get("artifacts")).get("paths"))).contains(strings(map(ci.get("variables"))).get("PLAN_FILE"));

        List<String> scripts = new ArrayList<>();
        for (Map<String, Object> job : List.of(plan, apply)) {
            list(job.get("script")).forEach(s -> scripts.add((String) s));
        }
        runInOrder(commands(scripts, strings(map(ci.get("variables")))), List.of(
                new Expected("plan --dir", 2, "--out", "--detailed-exitcode"),
                new Expected("plan --dir", 0, "--format", "markdown"),
                new Expected("show", 0, "--format", "markdown"),
                new Expected("plan --dir", 0, "--out"),
                new Expected("apply", 0, "--lock-timeout", "10m"),
                new Expected("plan --dir", 0, "--detailed-exitcode")));
    }

    @Test
    void the_extraction_finds_commands_behind_operators_and_cuts_redirections() {
        List<List<String>> found = commands(List.of("""
                set +e
                # flowform plan in a comment is no command
                if [ -f x ]; then flowform show "$PLAN_FILE" --format markdown > plan.md; fi
                flowform apply a \\
                  --lock-timeout 1m || echo "flowform failed"
                echo "$RUNNER_TEMP/flowform/bin" >> "$GITHUB_PATH"
                """), Map.of("PLAN_FILE", "p.json"));
        assertThat(found).containsExactly(List.of("show", "p.json", "--format", "markdown"),
                List.of("apply", "a", "--lock-timeout", "1m"));
    }

    /** One command the pipeline runs: how it starts, the exit code its script expects, flags it must carry. */
    private record Expected(String start, int exitCode, String... flags) {
    }

    private void runInOrder(List<List<String>> commands, List<Expected> expected) {
        assertThat(commands).as("the flowform commands of the pipeline, in order").hasSize(expected.size());
        CliRunner cli = CliRunner.fast();
        Path state = tmp.resolve("state");
        for (int i = 0; i < commands.size(); i++) {
            List<String> args = new ArrayList<>(commands.get(i));
            Expected e = expected.get(i);
            assertThat(String.join(" ", args)).as("command %d", i + 1).startsWith(e.start()).contains(e.flags());
            assertThatCode(() -> Main.commandLine(CliRunner.unattended()).parseArgs(args.toArray(String[]::new)))
                    .as("flowform accepts %s", args).doesNotThrowAnyException();
            args.addAll(List.of("--state-dir", state.toString()));
            CliRunner.Result r = cli.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as("%s\n%s", args, r).isEqualTo(e.exitCode());
            if (args.contains("markdown")) {
                assertThat(r.out()).startsWith("### flowform plan for environment `demo`").contains("**Plan:**");
            }
        }
    }

    /**
     * The {@code flowform} command lines of shell scripts, variables replaced: a command starts at the beginning of
     * a line or after a shell operator or keyword, and ends at the next operator or redirection.
     *
     * @param scripts   the scripts ({@code run:} or {@code script:} texts)
     * @param variables the pipeline's variables; the test's own values replace the configuration folder and the plan
     *                  file
     * @return each command's arguments after {@code flowform}
     */
    private List<List<String>> commands(List<String> scripts, Map<String, String> variables) {
        Map<String, String> vars = new LinkedHashMap<>(variables);
        if (vars.containsKey("FLOWFORM_DIR")) {
            vars.put("FLOWFORM_DIR", CliFiles.quickstart(tmp.resolve("config")).toString());
            vars.put("PLAN_FILE", tmp.resolve("flowform.plan.json").toString());
        }
        List<List<String>> out = new ArrayList<>();
        for (String script : scripts) {
            for (String line : script.replace("\\\n", " ").split("\n")) {
                if (line.strip().startsWith("#")) {
                    continue;
                }
                List<String> words = words(line, vars);
                for (int i = 0; i < words.size(); i++) {
                    boolean start = i == 0 || SEPARATORS.contains(words.get(i - 1));
                    if (start && words.get(i).equals("flowform")) {
                        List<String> args = new ArrayList<>();
                        for (int j = i + 1; j < words.size() && !SEPARATORS.contains(words.get(j))
                                && !words.get(j).matches("\\d?>>?"); j++) {
                            args.add(words.get(j));
                        }
                        out.add(args);
                    }
                }
            }
        }
        return out;
    }

    /** Splits a shell line into words and operators, double quotes removed and variables expanded. */
    private static List<String> words(String line, Map<String, String> vars) {
        List<String> words = new ArrayList<>();
        Matcher m = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"|(&&|\\|\\||\\$\\(|[;|)]|\\d?>>?)|([^\\s\";|&()>]+)").matcher(line);
        while (m.find()) {
            String w = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
            words.add(m.group(2) != null ? w : expand(w, vars));
        }
        return words;
    }

    private static String expand(String word, Map<String, String> vars) {
        Matcher m = Pattern.compile("\\$\\{\\{\\s*env\\.(\\w+)\\s*}}|\\$\\{(\\w+)}|\\$(\\w+)").matcher(word);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
            m.appendReplacement(sb, Matcher.quoteReplacement(vars.getOrDefault(name, m.group())));
        }
        return m.appendTail(sb).toString();
    }

    private static List<String> uses(Map<String, Object> job) {
        return list(job.get("steps")).stream().map(s -> (String) map(s).get("uses")).filter(u -> u != null).toList();
    }

    private static Map<String, Object> load(Path file) throws IOException {
        Object doc = new Load(LoadSettings.builder().setLabel(file.toString()).build()).loadFromString(Files.readString(file));
        return map(doc);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        assertThat(o).isInstanceOf(List.class);
        return (List<Object>) o;
    }

    private static Map<String, String> strings(Map<String, Object> m) {
        Map<String, String> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, String.valueOf(v)));
        return out;
    }
}
