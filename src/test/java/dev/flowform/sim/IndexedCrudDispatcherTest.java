package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The indexed store answers every GET exactly as fabric8's mock does: the same writes go to a plain mock and to
 * the indexed one, then the same reads (one object, a namespace's list, every namespace, label and field
 * selectors, missing objects, after updates, relabels and deletes) must get the same status and the same bytes,
 * list order and resourceVersion included (creation time and uid aside: each server makes up its own).
 */
class IndexedCrudDispatcherTest {
    private final List<KubernetesMockServer> servers = new ArrayList<>();
    private final List<KubernetesClient> clients = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private IndexedCrudDispatcher indexed;

    @BeforeEach
    void start() throws IOException {
        indexed = new IndexedCrudDispatcher();
        for (KubernetesCrudDispatcher d : List.of(new KubernetesCrudDispatcher(), indexed)) {
            KubernetesMockServer server = new KubernetesMockServer(new Context(Serialization.jsonMapper()),
                    new MockWebServer(), new HashMap<>(), d, false);
            server.init(InetAddress.getByName("127.0.0.1"), 0);
            servers.add(server);
            clients.add(server.createClient());
        }
    }

    @AfterEach
    void stop() {
        clients.forEach(KubernetesClient::close);
        servers.forEach(KubernetesMockServer::destroy);
    }

    @Test
    void the_index_is_in_place() {
        assertThat(indexed.indexed()).isTrue();
    }

    @Test
    void reads_answer_as_the_mock_does_after_creates_updates_and_deletes() throws Exception {
        onBoth(c -> {
            for (String ns : List.of("a", "b", "c")) {
                for (int i = 0; i < 4; i++) {
                    c.pods().inNamespace(ns).resource(pod("p" + i, i % 2 == 0 ? "even" : "odd")).create();
                    c.configMaps().inNamespace(ns).resource(configMap("p" + i)).create();
                }
            }
        });
        assertSameAnswers();

        onBoth(c -> {
            c.pods().inNamespace("b").withName("p1").edit(p -> new PodBuilder(p).editMetadata()
                    .addToLabels("parity", "even").endMetadata().build());
            c.configMaps().inNamespace("a").withName("p2").edit(m -> new ConfigMapBuilder(m).addToData("k", "v2").build());
            c.pods().inNamespace("c").withName("p3").delete();
            c.configMaps().inNamespace("c").delete();
            c.pods().inNamespace("a").resource(pod("p9", "odd")).create();
        });
        assertSameAnswers();
    }

    private void assertSameAnswers() throws Exception {
        List<String> paths = List.of(
                "/api/v1/namespaces/a/pods", "/api/v1/namespaces/b/pods", "/api/v1/namespaces/c/pods",
                "/api/v1/namespaces/zz/pods", "/api/v1/pods", "/api/v1/configmaps", "/api/v1/namespaces/c/configmaps",
                "/api/v1/namespaces/a/pods/p0", "/api/v1/namespaces/b/pods/p1", "/api/v1/namespaces/c/pods/p3",
                "/api/v1/namespaces/a/configmaps/p2", "/api/v1/namespaces/a/pods/nope",
                "/api/v1/namespaces/a/pods?labelSelector=parity%3Deven", "/api/v1/pods?labelSelector=parity%3Deven",
                "/api/v1/namespaces/b/pods?labelSelector=parity%21%3Deven", "/api/v1/pods?labelSelector=parity",
                "/api/v1/namespaces/a/pods?fieldSelector=metadata.name%3Dp9",
                "/api/v1/namespaces/a/pods?fieldSelector=metadata.name%21%3Dp9", "/api/v1", "/api");
        for (String path : paths) {
            HttpResponse<String> plain = get(servers.get(0), path);
            HttpResponse<String> fast = get(servers.get(1), path);
            assertThat(fast.statusCode()).as("status of %s", path).isEqualTo(plain.statusCode());
            assertThat(comparable(fast.body())).as("body of %s", path).isEqualTo(comparable(plain.body()));
        }
        assertThat(get(servers.get(1), "/api/v1/namespaces/a/pods").body()).contains("\"p0\"");
    }

    /** The body without what each server makes up on its own (creation time, uid). */
    private static String comparable(String body) {
        return body.replaceAll("\"creationTimestamp\":\"[^\"]*\"", "\"creationTimestamp\":\"T\"")
                .replaceAll("\"uid\":\"[^\"]*\"", "\"uid\":\"U\"");
    }

    private HttpResponse<String> get(KubernetesMockServer server, String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + server.getPort() + path);
        return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private void onBoth(Consumer<KubernetesClient> writes) {
        clients.forEach(writes);
    }

    private static Pod pod(String name, String parity) {
        return new PodBuilder().withNewMetadata().withName(name).addToLabels(Map.of("parity", parity, "app", "x"))
                .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("i").endContainer().endSpec().build();
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().addToData("k", "v").build();
    }
}
