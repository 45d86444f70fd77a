package dev.flowform.plan;

import dev.flowform.apply.Edits;
import dev.flowform.live.LiveMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LivePod;
import dev.flowform.model.LiveState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test helper: the live state a perfect operator would reach after a plan's edits, without rolls.
 * Used to check that planning again gives "No changes".
 */
final class Converge {
    private Converge() {
    }

    static LiveState apply(LiveState live, Plan plan) {
        List<LiveConnectCluster> clusters = new ArrayList<>();
        for (LiveConnectCluster c : live.clusters()) {
            Map<String, Object> raw = new LinkedHashMap<>(c.raw());
            for (Step s : plan.steps()) {
                if (s.object().name().equals(c.name()) && s.object().kind().equals("KafkaConnect")) {
                    if (s.payload() instanceof StepPayload.SetWorkerEos e) {
                        Edits.apply(raw, e.edits());
                    } else if (s.payload() instanceof StepPayload.PatchObject p) {
                        Edits.apply(raw, p.edits());
                    }
                }
            }
            GenericKubernetesResource kc = Serialization.jsonMapper().convertValue(raw, GenericKubernetesResource.class);
            LiveConnectCluster edited = LiveMapper.connectCluster(kc, null, List.of(), null);
            String mode = edited.eosMode().orElseThrow().value();
            List<LivePod> pods = new ArrayList<>();
            for (LivePod p : c.pods()) {
                String cfg = p.connectConfiguration() == null ? null
                        : p.connectConfiguration().replaceAll("exactly\\.once\\.source\\.support=\\w+", "")
                                + "exactly.once.source.support=" + mode + "\n";
                pods.add(new LivePod(p.name(), p.uid(), p.revision(), p.configurationHash(), p.ready(), p.terminating(), cfg));
            }
            clusters.add(new LiveConnectCluster(c.ref(), c.resourceVersion(), c.generation(), c.labels(),
                    edited.annotations(), edited.spec(), edited.config(), c.observedGeneration(), c.conditions(),
                    c.podSet(), pods, c.configMap(), raw));
        }
        List<LiveConnector> connectors = new ArrayList<>();
        for (LiveConnector c : live.connectors()) {
            Map<String, Object> raw = new LinkedHashMap<>(c.raw());
            for (Step s : plan.steps()) {
                if (s.object().name().equals(c.name()) && s.payload() instanceof StepPayload.PatchObject p) {
                    Edits.apply(raw, p.edits());
                }
            }
            connectors.add(LiveMapper.connector(Serialization.jsonMapper().convertValue(raw, GenericKubernetesResource.class)));
        }
        return new LiveState(live.api(), live.server(), clusters, connectors, live.fingerprints());
    }

    /** @return the objects with the KafkaConnect's status conditions replaced by one condition */
    static List<HasMetadata> withCondition(List<HasMetadata> objects, String type, String reason, String message) {
        for (HasMetadata o : objects) {
            if ("KafkaConnect".equals(o.getKind())) {
                GenericKubernetesResource kc = (GenericKubernetesResource) o;
                @SuppressWarnings("unchecked")
                Map<String, Object> status = (Map<String, Object>) kc.getAdditionalProperties().get("status");
                status.put("conditions", List.of(Map.of("type", type, "status", "True", "reason", reason, "message", message)));
            }
        }
        return objects;
    }

}
