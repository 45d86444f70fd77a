package dev.flowform.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowform.model.ObjectRef;
import dev.flowform.plan.FieldEdit;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.testing.Configs;
import dev.flowform.testing.Sim;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only typed retryable errors are retried: 409 by re-reading and re-applying at once, 5xx with capped
 * exponential back-off and jitter; everything else fails on the first attempt with the server's message.
 * The client has fabric8's own retries turned off, as flowform's write client does.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class Fabric8ClusterWriterRetryTest {

    private static final ObjectRef KC = new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnect", Configs.NS, "mm2-connect");

    @TempDir
    static Path tmp;

    private static EmbeddedCluster cluster;
    private static KubernetesClient client;
    private static int edits;
    private final List<Duration> sleeps = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    static void start() {
        cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast());
        client = cluster.newClient(new ConfigBuilder(cluster.config()).withRequestRetryBackoffLimit(0).build());
    }

    @AfterAll
    static void stop() {
        client.close();
        cluster.close();
    }

    @AfterEach
    void clearFaults() {
        cluster.faults().clear();
    }

    /** @return an edit that really changes the object (each call sets a new value) */
    private static List<FieldEdit> change() {
        return List.of(FieldEdit.set(List.of("spec", "config", "flowform.test.edit"), "value-" + (++edits), false));
    }

    private static long generation() {
        return new Fabric8ClusterWriter(client, d -> { }).generation(KC);
    }

    private Fabric8ClusterWriter writer() {
        return new Fabric8ClusterWriter(client, sleeps::add);
    }

    @Test
    void a_conflict_is_answered_by_re_reading_and_re_deciding_without_waiting() {
        cluster.faults().failNextWrites(2, 409);
        long before = generation();

        long g = writer().patch(KC, change());

        assertThat(g).isEqualTo(before + 1);
        assertThat(sleeps).isEmpty();
        assertThat(cluster.faults().pendingWriteFailures()).isZero();
    }

    @Test
    void server_errors_are_retried_with_growing_jittered_pauses() {
        cluster.faults().failNextWrites(3, 500);
        long before = generation();

        long g = writer().patch(KC, change());

        assertThat(g).isEqualTo(before + 1);
        assertThat(sleeps).hasSize(3);
        assertThat(sleeps.get(0)).isBetween(Duration.ofMillis(200), Duration.ofMillis(300));
        assertThat(sleeps.get(1)).isBetween(Duration.ofMillis(400), Duration.ofMillis(600));
        assertThat(sleeps.get(2)).isBetween(Duration.ofMillis(800), Duration.ofMillis(1200));
    }

    @Test
    void server_errors_that_persist_fail_after_the_last_attempt_naming_the_status() {
        cluster.faults().failNextWrites(50, 503);

        assertThatThrownBy(() -> writer().patch(KC, change())).isInstanceOf(ApplyException.class)
                .hasMessageContaining("HTTP 503").hasMessageContaining("after " + Fabric8ClusterWriter.MAX_ATTEMPTS + " attempts");
        assertThat(sleeps).hasSize(Fabric8ClusterWriter.MAX_ATTEMPTS - 1);
        assertThat(sleeps).allMatch(d -> d.compareTo(Duration.ofMillis(7500)) <= 0);
    }

    @Test
    void other_errors_fail_fast() {
        cluster.faults().failNextWrites(1, 422);

        assertThatThrownBy(() -> writer().patch(KC, change())).isInstanceOf(ApplyException.class)
                .hasMessageContaining("HTTP 422").hasMessageNotContaining("attempts")
                .satisfies(e -> assertThat(((ApplyException) e).retryable()).isFalse());
        assertThat(sleeps).isEmpty();
    }

    @Test
    void a_missing_object_fails_fast_with_its_name() {
        ObjectRef gone = new ObjectRef(KC.apiVersion(), KC.kind(), KC.namespace(), "no-such-cluster");

        assertThatThrownBy(() -> writer().patch(gone, change())).hasMessageContaining("no-such-cluster does not exist");
        assertThat(sleeps).isEmpty();
    }
}
