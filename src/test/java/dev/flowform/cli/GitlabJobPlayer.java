package dev.flowform.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plays one job of a GitLab CI pipeline on this machine, as a shell runner would: a fresh clone as the project
 * folder, the pipeline's {@code variables} overridden by the project's CI/CD variables and the predefined ones the
 * test gives, the {@code workflow} and job {@code rules} ({@code if} with {@code ==} and {@code !=} between variables
 * and double-quoted strings), {@code before_script} (the job's or the default's) and {@code script} in one bash with
 * {@code -e -o pipefail}, and {@code artifacts:paths} copied out whatever the outcome ({@code when: always}). The job's
 * {@code image} is not used: the scripts run on this machine's tools.
 */
final class GitlabJobPlayer {

    /**
     * What the job did.
     *
     * @param success   true when the script exited 0
     * @param log       the script's output
     * @param artifacts the folder its artifacts were copied to
     */
    record Result(boolean success, String log, Path artifacts) {
    }

    private GitlabJobPlayer() {
    }

    /**
     * @param pipeline  the {@code .gitlab-ci.yml}
     * @param job       the job's name
     * @param repo      the repository to clone
     * @param work      a folder for the clone and the runner's files (created)
     * @param variables the project's CI/CD variables and the predefined ones ({@code CI_PIPELINE_SOURCE}, ...)
     * @return what it did, or null when the workflow's or the job's rules keep it from running
     */
    static Result play(Path pipeline, String job, Path repo, Path work, Map<String, String> variables) {
        Map<String, Object> ci = CiScript.yaml(pipeline);
        Map<String, Object> spec = CiScript.map(ci.get(job));
        if (spec.isEmpty()) {
            throw new IllegalArgumentException("no job " + job);
        }
        Map<String, String> vars = new LinkedHashMap<>();
        CiScript.map(ci.get("variables")).forEach((k, v) -> vars.put(k, String.valueOf(v)));
        vars.putAll(variables);
        if (!rules(CiScript.map(ci.get("workflow")).get("rules"), vars) || !rules(spec.get("rules"), vars)) {
            return null;
        }
        Path project;
        Path tmp;
        try {
            Files.createDirectories(work);
            tmp = Files.createDirectories(work.resolve("tmp"));
            project = CiScript.cloneInto(repo, work.resolve("project"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> env = CiScript.runnerEnvironment(tmp);
        env.putAll(vars);
        env.putAll(Map.of("CI_PROJECT_DIR", project.toString(), "GITLAB_CI", "true", "CI_JOB_NAME", job));
        List<Object> before = spec.containsKey("before_script") ? CiScript.list(spec.get("before_script"))
                : CiScript.list(CiScript.map(ci.get("default")).get("before_script"));
        StringBuilder script = new StringBuilder();
        for (Object line : before) {
            script.append(line).append('\n');
        }
        for (Object line : CiScript.list(spec.get("script"))) {
            script.append(line).append('\n');
        }
        CiScript.Result r = CiScript.bash(project, env, script.toString());
        Path artifacts = work.resolve("artifacts");
        for (Object p : CiScript.list(CiScript.map(spec.get("artifacts")).get("paths"))) {
            Path file = project.resolve(String.valueOf(p));
            if (Files.exists(file)) {
                CiScript.copy(file, artifacts.resolve(String.valueOf(p)));
            }
        }
        return new Result(r.exitCode() == 0, r.output() + "(exit " + r.exitCode() + ")\n", artifacts);
    }

    /** @return true when a rule matches (or there are no rules): GitLab runs the job, or the pipeline */
    private static boolean rules(Object rules, Map<String, String> vars) {
        List<Object> list = CiScript.list(rules);
        if (list.isEmpty()) {
            return true;
        }
        for (Object o : list) {
            Object condition = CiScript.map(o).get("if");
            if (condition == null || matches(String.valueOf(condition), vars)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(String condition, Map<String, String> vars) {
        for (String op : List.of("==", "!=")) {
            int at = condition.indexOf(op);
            if (at > 0) {
                boolean equal = operand(condition.substring(0, at), vars).equals(operand(condition.substring(at + 2), vars));
                return op.equals("==") == equal;
            }
        }
        throw new IllegalArgumentException("rule not understood by the stand-in runner: " + condition);
    }

    private static String operand(String text, Map<String, String> vars) {
        String t = text.strip();
        if (t.startsWith("$")) {
            return vars.getOrDefault(t.substring(1), "");
        }
        if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
            return t.substring(1, t.length() - 1);
        }
        throw new IllegalArgumentException("operand not understood by the stand-in runner: " + t);
    }
}
