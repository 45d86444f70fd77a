package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.rules.ForcedRoll;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Strimzi reconciles every resource when it starts and every two minutes after, whether or not it changed, so a pod
 * that does not run what its resource renders is rolled without any spec change: a KafkaConnect worker whose
 * {@code strimzi.io/configuration-hash} is not its ConfigMap's, and on Strimzi 0.46-0.48 a KafkaMirrorMaker2 pod that
 * carries a hash at all (that operator's pods have none).
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PeriodicReconcileTest extends SimTestSupport {
    private static final String HASH = "726a0678";

    @TempDir
    Path tmp;

    private Pod pod(String name) {
        return cluster.client().pods().inNamespace(NS_V1).withName(name).get();
    }

    @Test
    void a_worker_whose_configuration_hash_is_not_its_configmaps_is_rolled_at_start_up_and_by_the_periodic_reconcile()
            throws IOException {
        String seed = Files.readString(seed("v1").resolve("seed.yaml"));
        String stale = "name: dr-connect-connect-1\n  namespace: mirror-v1";
        assertThat(seed).contains(stale);
        int at = seed.indexOf(stale);
        int hash = seed.indexOf("strimzi.io/configuration-hash: " + HASH, at);
        Files.writeString(tmp.resolve("seed.yaml"), seed.substring(0, hash) + "strimzi.io/configuration-hash: 00000000"
                + seed.substring(hash + ("strimzi.io/configuration-hash: " + HASH).length()));
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(tmp).settings(SimSettings.fast()).build());
        String untouched = pod("dr-connect-connect-0").getMetadata().getUid();
        long generation = connect(NS_V1).getMetadata().getGeneration();

        awaitIdle();
        assertThat(SimContext.annotation(pod("dr-connect-connect-1"), Strimzi.CONFIG_HASH_ANNOTATION)).isEqualTo(HASH);
        assertThat(pod("dr-connect-connect-0").getMetadata().getUid()).as("a pod that runs its ConfigMap stays")
                .isEqualTo(untouched);
        assertThat(connect(NS_V1).getMetadata().getGeneration()).isEqualTo(generation);

        Pod p = pod("dr-connect-connect-0");
        p.getMetadata().getAnnotations().put(Strimzi.CONFIG_HASH_ANNOTATION, "11111111");
        cluster.client().pods().inNamespace(NS_V1).resource(p).update();
        cluster.simulator().reconcileUnsettledNow();
        awaitIdle();
        assertThat(pod("dr-connect-connect-0").getMetadata().getUid()).isNotEqualTo(untouched);
        assertThat(SimContext.annotation(pod("dr-connect-connect-0"), Strimzi.CONFIG_HASH_ANNOTATION)).isEqualTo(HASH);
        assertThat(live(NS_V1).observedGeneration()).isEqualTo(generation);
    }

    @Test
    void a_mirror_maker_2_pod_whose_configuration_hash_is_not_its_configmaps_is_rolled_at_start_up() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("examples", "mirrormaker2", "seed", "mm2.yaml"));
        int pod = lines.indexOf("  name: mm2-mirrormaker2-1");
        assertThat(pod).isPositive();
        for (int i = pod; i < lines.size(); i++) {
            if (lines.get(i).contains("strimzi.io/configuration-hash: eb0829bf")) {
                lines.set(i, lines.get(i).replace("eb0829bf", "00000000"));
                break;
            }
        }
        Files.write(tmp.resolve("mm2.yaml"), lines);
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(tmp).settings(SimSettings.fast()).build());
        awaitIdle();
        assertThat(cluster.client().pods().inNamespace("mirror").withLabel(Strimzi.CLUSTER_LABEL, "mm2").list().getItems())
                .extracting(p -> SimContext.annotation(p, Strimzi.CONFIG_HASH_ANNOTATION)).containsOnly("eb0829bf");
    }

    @Test
    void a_strimzi_0_48_operator_replaces_the_mirror_maker_2_pods_of_a_newer_one_when_it_starts() {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(Path.of("examples", "mirrormaker2", "seed"))
                .settings(SimSettings.fast().withStrimziVersion("0.48.0")).build());
        List<Pod> pods = cluster.client().pods().inNamespace("mirror").withLabels(Map.of(Strimzi.CLUSTER_LABEL, "mm2",
                Strimzi.KIND_LABEL, Strimzi.KAFKA_MIRROR_MAKER_2_KIND)).list().getItems();
        assertThat(pods).hasSize(2).allSatisfy(p -> {
            assertThat(SimContext.annotation(p, Strimzi.CONFIG_HASH_ANNOTATION)).isNull();
            assertThat(p.getSpec().getContainers().get(0).getImage()).startsWith("quay.io/strimzi/kafka:0.48.0-kafka-");
            assertThat(SimContext.ready(p)).isTrue();
        });
        assertThat(ForcedRoll.affected(liveMirrorMaker("mirror", "mm2").workers())).isTrue();
        var ps = cluster.client().genericKubernetesResources(StrimziCrds.podSet(cluster.api())).inNamespace("mirror")
                .withName(MirrorMaker2Names.podSetName("mm2")).get();
        assertThat(JsonMaps.lng(ps.getAdditionalProperties(), "status", "observedGeneration"))
                .isEqualTo(ps.getMetadata().getGeneration());
        awaitIdle();
        assertThat(cluster.client().pods().inNamespace("mirror").withLabel(Strimzi.CLUSTER_LABEL, "mm2").list().getItems())
                .extracting(p -> p.getMetadata().getUid()).as("nothing more to roll")
                .containsExactlyInAnyOrderElementsOf(pods.stream().map(p -> p.getMetadata().getUid()).toList());
    }
}
