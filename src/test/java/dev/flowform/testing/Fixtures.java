package dev.flowform.testing;

import dev.flowform.live.LiveMapper;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveState;
import dev.flowform.model.StrimziApi;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Loads the project's cluster fixtures ({@code src/test/resources/fixtures/*.yaml}) into model
 * records without a server, through the same {@link LiveMapper} the real reader uses.
 */
public final class Fixtures {
    private Fixtures() {
    }

    /** @return the raw objects of {@code fixtures/<name>.yaml} */
    public static List<HasMetadata> objects(String name) {
        String text;
        try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + name + ".yaml")) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<HasMetadata> out = new ArrayList<>();
        for (String doc : text.split("(?m)^---\\s*$")) {
            if (doc.strip().isEmpty() || doc.lines().allMatch(l -> l.isBlank() || l.startsWith("#"))) {
                continue;
            }
            Map<String, Object> m = Serialization.unmarshal(doc, Map.class);
            String kind = (String) m.get("kind");
            Class<? extends HasMetadata> type = switch (kind) {
                case "Pod" -> Pod.class;
                case "ConfigMap" -> ConfigMap.class;
                default -> GenericKubernetesResource.class;
            };
            out.add(Serialization.jsonMapper().convertValue(m, type));
        }
        return out;
    }

    /** @return the live state a reader would build from {@code fixtures/<name>.yaml} */
    public static LiveState live(String name) {
        return live(objects(name));
    }

    /** @return the live state built from these objects */
    public static LiveState live(List<HasMetadata> objects) {
        List<LiveConnectCluster> clusters = new ArrayList<>();
        List<LiveConnector> connectors = new ArrayList<>();
        Map<String, String> fp = new TreeMap<>();
        StrimziApi api = null;
        for (HasMetadata o : objects) {
            if ("KafkaConnect".equals(o.getKind())) {
                GenericKubernetesResource kc = (GenericKubernetesResource) o;
                String n = kc.getMetadata().getName();
                GenericKubernetesResource ps = (GenericKubernetesResource) objects.stream()
                        .filter(x -> "StrimziPodSet".equals(x.getKind()) && x.getMetadata().getName().equals(n + "-connect"))
                        .findFirst().orElse(null);
                List<GenericKubernetesResource> pods = objects.stream().filter(x -> x instanceof Pod p
                                && n.equals(p.getMetadata().getLabels().get("strimzi.io/cluster"))).map(Fixtures::generic).toList();
                GenericKubernetesResource cm = objects.stream().filter(x -> x instanceof ConfigMap
                        && x.getMetadata().getName().equals(n + "-connect-config")).findFirst().map(Fixtures::generic).orElse(null);
                clusters.add(LiveMapper.connectCluster(kc, ps, pods, cm));
                fp.put(LiveMapper.key(kc), LiveMapper.fingerprint(kc));
                api = StrimziApi.fromApiVersion(kc.getApiVersion());
            } else if ("KafkaConnector".equals(o.getKind())) {
                connectors.add(LiveMapper.connector((GenericKubernetesResource) o));
                fp.put(LiveMapper.key(o), LiveMapper.fingerprint((GenericKubernetesResource) o));
            }
        }
        return new LiveState(api == null ? StrimziApi.V1BETA2 : api, "https://fixture:6443", clusters, connectors, fp);
    }

    /** @return {@code o} as fabric8's generic client would have read it */
    private static GenericKubernetesResource generic(HasMetadata o) {
        return io.fabric8.kubernetes.client.utils.Serialization.jsonMapper().convertValue(o, GenericKubernetesResource.class);
    }
}
