package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.flowform.testing.PgServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recipes in {@code examples/ci/} run as shipped. Each test plays a recipe's two jobs the way its CI service
 * would, in two fresh clones of a repository holding this working tree ({@link GithubJobPlayer},
 * {@link GitlabJobPlayer}): the pull request's plan job (install flowform, {@code plan --out}, the comment, the saved
 * plan kept as an artifact) and, after the merge, the apply job (install, apply the plan, plan again). Both reach
 * the same state, in PostgreSQL ({@code FLOWFORM_PG_CONN_STR}), and the same cluster, the quickstart's embedded
 * cluster served by {@code flowform cluster serve} ({@code KUBECONFIG}), as two CI runners reach a team's database
 * and cluster. No release exists: the plan job builds flowform from its checkout with Maven; the apply job installs
 * the archive that build made, through the release URL variable. Before the real apply, the GitHub apply job is
 * played once against an empty database, as on a runner that does not reach the plan's state, and must refuse the
 * plan saying why. Slow tier: two Maven builds and an EOS rollout on the embedded cluster, about 4 minutes.
 */
@Tag("slow")
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class CiWorkflowsTest {

    private static final Path GITHUB = Path.of("examples", "ci", "github-actions.yml");
    private static final Path GITLAB = Path.of("examples", "ci", "gitlab-ci.yml");
    private static final Path BUILT = Path.of("workspace", "target", "flowform.tar.gz");

    @TempDir
    static Path tmp;
    private static Path repo;

    @BeforeAll
    static void a_repository_holding_this_working_tree() {
        repo = CiScript.repository(Path.of("").toAbsolutePath(), tmp.resolve("repo"));
    }

    @Test
    void the_github_workflow_applies_the_pull_requests_saved_plan_after_the_merge() throws Exception {
        PgServer.Database db = PgServer.get().freshDatabase("ci_github");
        try (ChildFlowform cluster = serve(tmp.resolve("github-cluster"))) {
            String kubeconfig = Files.readString(tmp.resolve("github-cluster").resolve("kubeconfig.yaml"));
            Map<String, String> secrets = Map.of("FLOWFORM_PG_CONN_STR", db.keywordConnStr(),
                    "FLOWFORM_KUBECONFIG_PLAN", kubeconfig, "FLOWFORM_KUBECONFIG_APPLY", kubeconfig);
            Path artifacts = tmp.resolve("github-artifacts");

            GithubJobPlayer.Result plan = GithubJobPlayer.play(GITHUB, "plan", new GithubJobPlayer.Runner(repo,
                    tmp.resolve("github-plan"), artifacts, "101", "pull_request", Map.of(), secrets, Map.of()));
            assertThat(plan).as("the plan job runs for a pull request").isNotNull();
            assertThat(plan.success()).as(plan.log()).isTrue();
            assertThat(plan.outputs().get("plan")).containsEntry("exitcode", "2");
            assertThat(plan.comments()).singleElement().asString()
                    .startsWith("### flowform plan for environment `demo`").contains("**Plan:**");
            assertThat(artifacts.resolve("101").resolve("flowform-plan-demo").resolve("flowform.plan.json")).isRegularFile();
            assertThat(GithubJobPlayer.play(GITHUB, "apply", new GithubJobPlayer.Runner(repo, tmp.resolve("github-skip"),
                    artifacts, "101", "pull_request", Map.of(), secrets, Map.of()))).as("no apply on a pull request").isNull();

            Map<String, String> release = Map.of("FLOWFORM_RELEASE_URL",
                    tmp.resolve("github-plan").resolve(BUILT).toUri().toString());
            Map<String, Map<String, String>> prRun = Map.of("source", Map.of("run_id", "101"));
            PgServer.Database empty = PgServer.get().freshDatabase("ci_github_elsewhere");
            GithubJobPlayer.Result elsewhere = GithubJobPlayer.play(GITHUB, "apply", new GithubJobPlayer.Runner(repo,
                    tmp.resolve("github-apply-elsewhere"), artifacts, "102", "push", release,
                    Map.of("FLOWFORM_PG_CONN_STR", empty.keywordConnStr(), "FLOWFORM_KUBECONFIG_APPLY", kubeconfig), prRun));
            assertThat(elsewhere.success()).as(elsewhere.log()).isFalse();
            assertThat(elsewhere.log().replaceAll("\\s+", " ")).contains("Saved plan does not match the given state",
                    "holds nothing yet (serial 0)", "a pg backend block");

            GithubJobPlayer.Result apply = GithubJobPlayer.play(GITHUB, "apply", new GithubJobPlayer.Runner(repo,
                    tmp.resolve("github-apply"), artifacts, "103", "push", release, secrets, prRun));
            assertThat(apply.success()).as(apply.log()).isTrue();
            assertThat(apply.log()).contains("Apply complete!", "No changes.");
            assertThat(tmp.resolve("github-apply").resolve("workspace").resolve("target")).as("installed, not built")
                    .doesNotExist();
        }
    }

    @Test
    void the_gitlab_pipeline_plans_the_merge_request_and_applies_on_the_default_branch() throws Exception {
        PgServer.Database db = PgServer.get().freshDatabase("ci_gitlab");
        List<String> notes = new CopyOnWriteArrayList<>();
        HttpServer api = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        api.createContext("/api/v4/projects/7/merge_requests/3/notes", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            boolean authorised = "comment-token".equals(exchange.getRequestHeaders().getFirst("PRIVATE-TOKEN"));
            if (authorised) {
                notes.add(URLDecoder.decode(body.substring(body.indexOf('=') + 1), StandardCharsets.UTF_8));
            }
            exchange.sendResponseHeaders(authorised ? 201 : 401, -1);
            exchange.close();
        });
        api.start();
        try (ChildFlowform cluster = serve(tmp.resolve("gitlab-cluster"))) {
            Map<String, String> project = Map.of("FLOWFORM_PG_CONN_STR", db.keywordConnStr(),
                    "KUBECONFIG", tmp.resolve("gitlab-cluster").resolve("kubeconfig.yaml").toString(),
                    "FLOWFORM_COMMENT_TOKEN", "comment-token", "CI_DEFAULT_BRANCH", "main",
                    "CI_API_V4_URL", "http://127.0.0.1:" + api.getAddress().getPort() + "/api/v4", "CI_PROJECT_ID", "7");

            Map<String, String> mergeRequest = new java.util.HashMap<>(project);
            mergeRequest.putAll(Map.of("CI_PIPELINE_SOURCE", "merge_request_event", "CI_MERGE_REQUEST_IID", "3",
                    "CI_COMMIT_BRANCH", ""));
            GitlabJobPlayer.Result plan = GitlabJobPlayer.play(GITLAB, "plan", repo, tmp.resolve("gitlab-plan"), mergeRequest);
            assertThat(plan).as("the plan job runs for a merge request").isNotNull();
            assertThat(plan.success()).as(plan.log()).isTrue();
            assertThat(notes).singleElement().asString().startsWith("### flowform plan for environment `demo`")
                    .contains("**Plan:**");
            assertThat(plan.artifacts().resolve("flowform.plan.json")).isRegularFile();
            assertThat(GitlabJobPlayer.play(GITLAB, "apply", repo, tmp.resolve("gitlab-skip"), mergeRequest))
                    .as("no apply in a merge request pipeline").isNull();

            Map<String, String> main = new java.util.HashMap<>(project);
            main.putAll(Map.of("CI_PIPELINE_SOURCE", "push", "CI_COMMIT_BRANCH", "main", "FLOWFORM_RELEASE_URL",
                    tmp.resolve("gitlab-plan").resolve("project").resolve("target").resolve("flowform.tar.gz").toUri().toString()));
            assertThat(GitlabJobPlayer.play(GITLAB, "plan", repo, tmp.resolve("gitlab-skip2"), main))
                    .as("no merge request plan on the default branch").isNull();
            GitlabJobPlayer.Result apply = GitlabJobPlayer.play(GITLAB, "apply", repo, tmp.resolve("gitlab-apply"), main);
            assertThat(apply.success()).as(apply.log()).isTrue();
            assertThat(apply.log()).contains("Apply complete!", "No changes.");
            assertThat(apply.artifacts().resolve("flowform.plan.json")).isRegularFile();
        } finally {
            api.stop(0);
        }
    }

    /**
     * Serves a copy of the quickstart's embedded cluster ({@code flowform cluster serve}, five times the demo's speed)
     * with its kubeconfig at {@code <dir>/kubeconfig.yaml}.
     */
    private static ChildFlowform serve(Path dir) throws IOException, InterruptedException {
        Path config = CliFiles.quickstart(dir.resolve("quickstart"));
        ChildFlowform serve = ChildFlowform.start(dir, Map.of("FLOWFORM_SIM_FAST", "1"), "cluster", "serve", "--dir",
                config.toString(), "--state-dir", dir.resolve("state").toString(), "--kubeconfig",
                dir.resolve("kubeconfig.yaml").toString(), "--no-color");
        assertThat(serve.awaitLine(0, l -> l.startsWith("Ctrl-C stops it"), Duration.ofSeconds(120)))
                .as("serve started:%n%s%n%s", serve.out(), serve.err()).isGreaterThanOrEqualTo(0);
        return serve;
    }
}
