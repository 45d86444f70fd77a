package dev.flowform.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plays one job of a GitHub Actions workflow on this machine, as a runner would: a fresh clone for
 * {@code actions/checkout}, each {@code run:} step in bash with the workflow's, job's and step's {@code env}, the
 * runner's files ({@code GITHUB_OUTPUT}, {@code GITHUB_ENV}, {@code GITHUB_PATH}) and {@code RUNNER_TEMP}, step
 * conditions, and the {@code ${{ }}} expressions the recipes use (contexts {@code github}, {@code env},
 * {@code vars}, {@code secrets}, {@code steps}, {@code runner}; string literals, {@code ==}, {@code !=}, {@code ||}).
 * The actions are stood in for: {@code checkout} clones, {@code setup-java} keeps this JVM's Java, the artifact
 * actions copy files to and from a folder shared by the jobs, the pull request comment is kept, and
 * {@code github-script} (JavaScript against GitHub's API) takes the outputs the test gives it. Any other action, or an
 * expression outside that grammar, fails the play, so a recipe cannot grow a step the test silently skips.
 */
final class GithubJobPlayer {

    private static final Pattern EXPRESSION = Pattern.compile("\\$\\{\\{(.*?)}}");

    /**
     * What the job did.
     *
     * @param success  true when every step that ran succeeded
     * @param log      each step's name and output
     * @param comments the pull request comments it made
     * @param outputs  each step's outputs, by step id
     */
    record Result(boolean success, String log, List<String> comments, Map<String, Map<String, String>> outputs) {
    }

    /**
     * Where and how the job runs.
     *
     * @param repo          the repository to check out
     * @param work          a folder for the job's checkout and runner files (created)
     * @param artifacts     the folder artifacts live in between jobs: {@code <run id>/<name>/}
     * @param runId         this workflow run's id
     * @param event         {@code github.event_name}
     * @param vars          repository variables
     * @param secrets       repository secrets
     * @param scriptOutputs the outputs of each {@code actions/github-script} step, by step id
     */
    record Runner(Path repo, Path work, Path artifacts, String runId, String event, Map<String, String> vars,
                  Map<String, String> secrets, Map<String, Map<String, String>> scriptOutputs) {
    }

    private final Map<String, Object> workflow;
    private final Runner runner;
    private final Map<String, Map<String, String>> stepOutputs = new LinkedHashMap<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private final List<String> path = new ArrayList<>();
    private final List<String> comments = new ArrayList<>();
    private final StringBuilder log = new StringBuilder();
    private Path workspace;
    private Path temp;

    private GithubJobPlayer(Map<String, Object> workflow, Runner runner) {
        this.workflow = workflow;
        this.runner = runner;
    }

    /**
     * @param workflow the workflow file
     * @param job      the job's id
     * @param runner   where and how it runs
     * @return what it did, or null when its {@code if} kept it from running
     */
    static Result play(Path workflow, String job, Runner runner) {
        return new GithubJobPlayer(CiScript.yaml(workflow), runner).play(job);
    }

    private Result play(String jobId) {
        Map<String, Object> job = CiScript.map(CiScript.map(workflow.get("jobs")).get(jobId));
        if (job.isEmpty()) {
            throw new IllegalArgumentException("no job " + jobId);
        }
        if (job.containsKey("if") && !truthy(eval(String.valueOf(job.get("if"))))) {
            return null;
        }
        try {
            Files.createDirectories(runner.work());
            workspace = runner.work().resolve("workspace");
            temp = Files.createDirectories(runner.work().resolve("runner-temp"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        CiScript.map(workflow.get("env")).forEach((k, v) -> env.put(k, interpolate(String.valueOf(v))));
        CiScript.map(job.get("env")).forEach((k, v) -> env.put(k, interpolate(String.valueOf(v))));
        boolean ok = true;
        for (Object o : CiScript.list(job.get("steps"))) {
            Map<String, Object> step = CiScript.map(o);
            if (!ok || step.containsKey("if") && !truthy(eval(String.valueOf(step.get("if"))))) {
                log.append("--- skipped: ").append(name(step)).append('\n');
                continue;
            }
            log.append("--- ").append(name(step)).append('\n');
            ok = step.containsKey("uses") ? uses(step) : run(step);
        }
        return new Result(ok, log.toString(), comments, stepOutputs);
    }

    private boolean run(Map<String, Object> step) {
        Map<String, String> stepEnv = new LinkedHashMap<>(env);
        CiScript.map(step.get("env")).forEach((k, v) -> stepEnv.put(k, interpolate(String.valueOf(v))));
        Path output = temp.resolve("output-" + stepOutputs.size());
        Path envFile = temp.resolve("env");
        Path pathFile = temp.resolve("path");
        Map<String, String> all = CiScript.runnerEnvironment(temp);
        all.putAll(stepEnv);
        all.putAll(Map.of("GITHUB_OUTPUT", output.toString(), "GITHUB_ENV", envFile.toString(), "GITHUB_PATH",
                pathFile.toString(), "RUNNER_TEMP", temp.toString(), "GITHUB_WORKSPACE", workspace.toString(),
                "GITHUB_EVENT_NAME", runner.event(), "GITHUB_ACTIONS", "true"));
        List<String> prefix = new ArrayList<>(path);
        java.util.Collections.reverse(prefix);
        prefix.add(all.get("PATH"));
        all.put("PATH", String.join(":", prefix));
        CiScript.Result r = CiScript.bash(workspace, all, interpolate(String.valueOf(step.get("run"))));
        log.append(r.output()).append("(exit ").append(r.exitCode()).append(")\n");
        if (step.containsKey("id")) {
            stepOutputs.put(String.valueOf(step.get("id")), CiScript.keyValues(output));
        }
        env.putAll(CiScript.keyValues(envFile));
        path.clear();
        try {
            if (Files.exists(pathFile)) {
                Files.readAllLines(pathFile).stream().filter(l -> !l.isBlank()).forEach(path::add);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return r.exitCode() == 0;
    }

    private boolean uses(Map<String, Object> step) {
        String action = String.valueOf(step.get("uses"));
        Map<String, String> with = new LinkedHashMap<>();
        CiScript.map(step.get("with")).forEach((k, v) -> with.put(k, interpolate(String.valueOf(v))));
        String name = action.substring(0, action.indexOf('@'));
        switch (name) {
            case "actions/checkout" -> CiScript.cloneInto(runner.repo(), workspace);
            case "actions/setup-java" -> log.append("Java ").append(with.get("java-version")).append(": this JVM's\n");
            case "actions/upload-artifact" -> {
                Path file = workspace.resolve(with.get("path"));
                if (!Files.exists(file)) {
                    log.append("no file ").append(file).append('\n');
                    return !"error".equals(with.get("if-no-files-found"));
                }
                CiScript.copy(file, runner.artifacts().resolve(runner.runId()).resolve(with.get("name"))
                        .resolve(file.getFileName().toString()));
            }
            case "actions/download-artifact" -> {
                String run = with.getOrDefault("run-id", runner.runId());
                Path from = runner.artifacts().resolve(run.isEmpty() ? runner.runId() : run).resolve(with.get("name"));
                if (!Files.isDirectory(from)) {
                    log.append("no artifact ").append(from).append('\n');
                    return false;
                }
                CiScript.copy(from, workspace.resolve(with.getOrDefault("path", ".")));
            }
            case "marocchino/sticky-pull-request-comment" -> {
                try {
                    comments.add(Files.readString(workspace.resolve(with.get("path"))));
                } catch (IOException e) {
                    log.append("no comment file: ").append(e.getMessage()).append('\n');
                    return false;
                }
            }
            case "actions/github-script" -> {
                String id = String.valueOf(step.get("id"));
                Map<String, String> outputs = runner.scriptOutputs().get(id);
                if (outputs == null) {
                    log.append("github-script step ").append(id).append(": no stand-in outputs\n");
                    return false;
                }
                stepOutputs.put(id, outputs);
            }
            default -> throw new IllegalArgumentException("no stand-in for action " + action);
        }
        return true;
    }

    private static String name(Map<String, Object> step) {
        Object n = step.getOrDefault("name", step.getOrDefault("uses", step.get("run")));
        return String.valueOf(n).lines().findFirst().orElse("");
    }

    /** @return {@code text} with every {@code ${{ expression }}} replaced by its value */
    private String interpolate(String text) {
        Matcher m = EXPRESSION.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(eval(m.group(1))));
        }
        return m.appendTail(sb).toString();
    }

    private static boolean truthy(String value) {
        return !value.isEmpty() && !value.equals("false") && !value.equals("0");
    }

    /** Evaluates {@code a || b ...}, each operand {@code x == y}, {@code x != y} or a value. */
    private String eval(String expression) {
        String e = expression.strip();
        if (e.startsWith("${{") && e.endsWith("}}")) {
            e = e.substring(3, e.length() - 2).strip();
        }
        for (String alternative : split(e, "||")) {
            String v = comparison(alternative.strip());
            if (truthy(v)) {
                return v;
            }
        }
        return "";
    }

    private String comparison(String e) {
        for (String op : List.of("==", "!=")) {
            List<String> sides = split(e, op);
            if (sides.size() == 2) {
                boolean equal = value(sides.get(0).strip()).equals(value(sides.get(1).strip()));
                return String.valueOf(op.equals("==") == equal);
            }
        }
        return value(e);
    }

    private String value(String e) {
        if (e.startsWith("'") && e.endsWith("'") && e.length() >= 2) {
            return e.substring(1, e.length() - 1).replace("''", "'");
        }
        if (!e.matches("[a-z_]+(\\.[A-Za-z0-9_-]+)+")) {
            throw new IllegalArgumentException("expression not understood by the stand-in runner: " + e);
        }
        String[] p = e.split("\\.");
        String found = switch (p[0]) {
            case "env" -> env.get(p[1]);
            case "vars" -> runner.vars().get(p[1]);
            case "secrets" -> runner.secrets().get(p[1]);
            case "runner" -> p[1].equals("temp") ? String.valueOf(temp) : null;
            case "steps" -> p.length == 4 && p[2].equals("outputs")
                    ? stepOutputs.getOrDefault(p[1], Map.of()).get(p[3]) : null;
            case "github" -> switch (e) {
                case "github.event_name" -> runner.event();
                case "github.token" -> "token-of-run-" + runner.runId();
                case "github.event.pull_request.number" -> "1";
                default -> throw new IllegalArgumentException("no stand-in for " + e);
            };
            default -> throw new IllegalArgumentException("no stand-in for context " + p[0]);
        };
        return found == null ? "" : found;
    }

    /** @return {@code e} split at {@code op} outside quotes */
    private static List<String> split(String e, String op) {
        List<String> out = new ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < e.length(); i++) {
            char c = e.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && e.startsWith(op, i)) {
                out.add(e.substring(start, i));
                start = i + op.length();
                i += op.length() - 1;
            }
        }
        out.add(e.substring(start));
        return out;
    }
}
