package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

import dev.flowform.cli.view.ProveView;
import dev.flowform.connect.ConnectorStatus;
import dev.flowform.connect.RealKafka;
import dev.flowform.locking.Sleeper;
import dev.flowform.model.KafkaAcl;
import dev.flowform.model.LiveKafkaUser;
import dev.flowform.run.ProveOperation;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once on an authorizing Kafka (docs/domain-rules.md, rule 10), end to end on real Kafka 4.3.1: the target
 * cluster dc2 authenticates with SASL/SCRAM-SHA-512 and authorizes with KRaft's {@code StandardAuthorizer}; the Connect
 * worker authenticates to it as KafkaUser {@code mm2-connect} (the settings Strimzi derives from
 * {@code spec.authentication}), whose ACLs, applied through the Admin API as the User Operator applies them, are those
 * of an at-least-once Connect cluster. The rollout without the check breaks the flow with Kafka's
 * {@code TransactionalIdAuthorizationException}; {@code plan} refuses it naming the missing ACLs; once the KafkaUser
 * holds them, the rollout succeeds and committed records arrive once, aborted ones not at all.
 */
@Tag("kafka")
class SecuredRolloutOnRealKafkaTest {
    private static final Path DIR = Path.of("src/test/resources/secured-real");
    private static final String NS = "replication";
    private static final String CLUSTER = NS + "/mm2-connect";
    private static final String SOURCE = "dc1-to-dc2-source";
    private static final Path LOGS = Path.of("target/secured-real-logs");

    @TempDir
    Path work;

    private long t0;
    private RealKafka kafka;
    private EmbeddedCluster cluster;
    private CliRunner cli;
    private String password;
    /** Everything flowform printed, to look for the password in. */
    private final StringBuilder outputs = new StringBuilder();

    @Test
    void without_the_acls_exactly_once_breaks_the_flow_plan_refuses_it_and_with_them_the_rollout_holds() {
        t0 = System.nanoTime();
        Map<String, Map<String, Object>> seed = seed();
        password = (String) ((Map<?, ?>) seed.get("Secret").get("stringData")).get("password");
        kafka = RealKafka.start(Map.of("dc1", List.of("dc1-kafka-bootstrap.kafka-dc1.svc:9092"),
                        "dc2", List.of("dc2-kafka-bootstrap.kafka-dc2.svc:9092")),
                Map.of("dc1", List.of("orders")), Map.of(), Set.of("dc2"), work.resolve("kafka"));
        try (RealKafka k = kafka) {
            kafka.applyUser("dc2", "mm2-connect", password, acls(spec(seed.get("KafkaUser"))));
            cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder()
                    .seedDir(DIR.resolve("seed")).settings(SimSettings.demo()).connectRuntime(kafka::runtime).build());
            try (EmbeddedCluster c = cluster) {
                cli = new CliRunner(CliRunner.unattended().withAttachedCluster(cluster));
                assertThat(ProveOperation.awaitConnectorsRunning(cluster, NS,
                        new ProveView(new PrintWriter(Writer.nullWriter())), Sleeper.SYSTEM))
                        .as("the at-least-once flow runs as mm2-connect").isTrue();
                System.out.printf("at-least-once flow running as User:mm2-connect after %.1f s%n", seconds(t0));
                planRefusesNamingTheAcls();
                theRolloutWithoutTheCheckBreaksTheFlow();
                addTheAclsAsTheUserOperatorWould();
                theRolloutSucceeds();
                committedRecordsArriveOnceAndAbortedOnesNot();
                assertThat(outputs.toString()).doesNotContain(password);
                assertThat(filesContaining(work.resolve("state"), password)).isEmpty();
                assertThat(logs(kafka).stream().filter(f -> contains(f, password)).toList()).isEmpty();
            }
        } finally {
            WorkerLogs.keep(kafka.workerLogDir(), LOGS);
        }
    }

    private void planRefusesNamingTheAcls() {
        CliRunner.Result plan = run("plan");
        System.out.println("plan:\n" + plan.out() + plan.err());
        assertThat(plan.exitCode()).isNotZero();
        assertThat(plan.out() + plan.err()).contains("Missing ACLs for exactly-once")
                .contains("whose KafkaUser replication/mm2-connect lacks ACLs exactly-once needs:")
                .contains("TransactionalId \"connect-cluster-mm2-connect\" (literal): Write, Describe")
                .contains("TransactionalId \"mm2-connect-dc1-to-dc2-source-0\" (literal): Write, Describe");
    }

    /** The first roll already breaks the flow: the worker, elected leader, may not claim the config topic. */
    private void theRolloutWithoutTheCheckBreaksTheFlow() {
        CliRunner.Result broken = run("apply", "--auto-approve", "--accept-missing-acls");
        System.out.println("apply --accept-missing-acls (exit " + broken.exitCode() + "):\n" + broken.out() + broken.err());
        String refusal = WorkerLogs.relevant(logs(kafka)).lines()
                .dropWhile(l -> !l.contains("Unable to claim write privileges")).limit(3).reduce("", (a, b) -> a + b + "\n");
        System.out.printf("after the broken rollout (%.1f s), connector %s, the worker log:%n%s", seconds(t0),
                kafka.runtime().status(CLUSTER, SOURCE).map(ConnectorStatus::state).orElse("?"), refusal);
        assertThat(broken.exitCode()).isNotZero();
        assertThat(broken.out() + broken.err()).contains("2. WAIT_FOR_ROLL connect_cluster.mm2-connect: the "
                + "operator reported NotReady at generation 2");
        assertThat(refusal).contains("Unable to claim write privileges for config topic after being elected leader")
                .contains("TransactionalIdAuthorizationException: Transactional Id authorization failed.");
    }

    /** The ACLs plan named go into the KafkaUser, and to Kafka through the Admin API. */
    private void addTheAclsAsTheUserOperatorWould() {
        GenericKubernetesResource edited = cluster.client()
                .genericKubernetesResources("kafka.strimzi.io/v1beta2", "KafkaUser").inNamespace(NS)
                .withName("mm2-connect").edit(u -> {
                    addAcl(u, "connect-cluster-mm2-connect");
                    addAcl(u, "mm2-connect-dc1-to-dc2-source-0");
                    return u;
                });
        kafka.applyUser("dc2", "mm2-connect", password, acls(spec(edited.getAdditionalProperties())));
        // the stuck leader claims the config topic at its next try; Strimzi sees that at its next periodic reconcile
        // (every 120 s), which the test asks for as soon as the pod is Ready
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                .until(() -> podReady("mm2-connect-connect-0"));
        cluster.simulator().triggerReconcile(NS, "mm2-connect");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> ready(connect().get()));
        System.out.printf("ACLs added, worker Ready, KafkaConnect reconciled: %.1f s%n", seconds(t0));
    }

    private void theRolloutSucceeds() {
        CliRunner.Result planned = run("plan");
        assertThat(planned.exitCode()).as("%s", planned).isZero();
        assertThat(planned.out() + planned.err()).doesNotContain("Missing ACLs").doesNotContain("ACLs for exactly-once missing");
        CliRunner.Result apply = run("apply", "--auto-approve");
        System.out.println("apply (exit " + apply.exitCode() + "):\n" + apply.out() + apply.err());
        assertThat(apply.exitCode()).as("%s", apply).isZero();
        assertThat(apply.out()).contains("Apply complete!");
        System.out.printf("rollout done: %.1f s%n", seconds(t0));
    }

    private void committedRecordsArriveOnceAndAbortedOnesNot() {
        RealKafka.Produced produced = kafka.write("dc1", "orders", "eos", 20, 10, 2, Duration.ofMillis(20), n -> { });
        RealKafka.Counted counted = kafka.count("dc2", "dc1.orders", "eos", produced.committed(), true,
                Duration.ofSeconds(60));
        System.out.printf("wrote %s, read on dc2 %s: %.1f s%n", produced, counted, seconds(t0));
        assertThat(produced).isEqualTo(new RealKafka.Produced(100, 100));
        assertThat(counted).isEqualTo(new RealKafka.Counted(100, 100, 0, 0));
        // ... written by the task's transactional producer, as mm2-connect (an ID never used is not described)
        assertThatCode(() -> kafka.ongoing("dc2", "mm2-connect-dc1-to-dc2-source-0")).doesNotThrowAnyException();
    }

    private Resource<GenericKubernetesResource> connect() {
        return cluster.client().genericKubernetesResources("kafka.strimzi.io/v1beta2", "KafkaConnect").inNamespace(NS)
                .withName("mm2-connect");
    }

    private boolean podReady(String pod) {
        var p = cluster.client().pods().inNamespace(NS).withName(pod).get();
        return p != null && p.getStatus() != null && p.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** @return true when the operator reported Ready for the resource's current generation */
    private static boolean ready(GenericKubernetesResource r) {
        Map<?, ?> status = (Map<?, ?>) r.getAdditionalProperties().get("status");
        return status != null && status.get("observedGeneration") instanceof Number n
                && n.longValue() == r.getMetadata().getGeneration()
                && status.get("conditions") instanceof List<?> l && l.stream().anyMatch(x -> x instanceof Map<?, ?> m
                && "Ready".equals(m.get("type")) && "True".equals(m.get("status")));
    }

    @SuppressWarnings("unchecked")
    private static void addAcl(GenericKubernetesResource user, String transactionalId) {
        Map<String, Object> authorization = (Map<String, Object>) spec(user.getAdditionalProperties()).get("authorization");
        List<Object> acls = new ArrayList<>((List<Object>) authorization.get("acls"));
        acls.add(Map.of("resource", Map.of("type", "transactionalId", "name", transactionalId, "patternType", "literal"),
                "operations", List.of("Write", "Describe"), "host", "*"));
        authorization.put("acls", acls);
    }

    private CliRunner.Result run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--dir", DIR.toString(), "--state-dir", work.resolve("state").toString(), "--no-color",
                "-e", "real"));
        CliRunner.Result r = cli.run(all.toArray(String[]::new));
        outputs.append(r.out()).append(r.err());
        return r;
    }

    private static List<Path> filesContaining(Path dir, String text) {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).filter(f -> contains(f, text)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean contains(Path file, String text) {
        try {
            return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1).contains(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> logs(RealKafka kafka) {
        try (Stream<Path> s = Files.list(kafka.workerLogDir())) {
            return s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the seed's objects by kind (one of each) */
    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> seed() {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        try {
            String text = Files.readString(DIR.resolve("seed/mm2-connect.yaml"));
            for (String doc : text.split("(?m)^---\\s*$")) {
                Map<String, Object> m = Serialization.unmarshal(doc, Map.class);
                out.put((String) m.get("kind"), m);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(Map<String, Object> object) {
        return (Map<String, Object>) object.get("spec");
    }

    private static List<KafkaAcl> acls(Map<String, Object> kafkaUserSpec) {
        return LiveKafkaUser.of(null, kafkaUserSpec).acls();
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
