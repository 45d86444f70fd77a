package dev.flowform.sim;

import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.Strimzi;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The objects a KafkaConnect reconcile writes (worker configuration, ConfigMap, StrimziPodSet, pods, the PodSet's
 * status) and the StrimziPodSet controller's re-creation of deleted pods. Runs on the operator thread.
 */
final class PodSetController {
    private static final Logger LOG = Logger.getLogger(PodSetController.class.getName());

    private final SimContext ctx;
    private final Kubelet kubelet;
    /** Last PodSet version the simulator wrote or read, per {@code ns/name}: only the operator writes PodSets. */
    private final Map<String, GenericKubernetesResource> podSets = new HashMap<>();
    private final AtomicLong podsCreated = new AtomicLong();

    PodSetController(SimContext ctx, Kubelet kubelet) {
        this.ctx = ctx;
        this.kubelet = kubelet;
    }

    /**
     * What the pods of one reconcile must end up with.
     *
     * @param revision   {@code strimzi.io/revision}
     * @param configHash {@code strimzi.io/configuration-hash}, or null for the env-var style
     * @param fileText   ConfigMap {@code kafka-connect.properties}, or null for the env-var style
     * @param envText    {@code KAFKA_CONNECT_CONFIGURATION}, or null for the ConfigMap style
     * @param newStyle   true for the ConfigMap style (Strimzi 0.46+)
     */
    record Target(String revision, String configHash, String fileText, String envText, boolean newStyle) {
        /** @return true when pod {@code p} exists and runs this revision (and configuration hash) */
        boolean runs(Pod p) {
            return p != null && revision.equals(SimContext.annotation(p, Strimzi.REVISION_ANNOTATION))
                    && (configHash == null || configHash.equals(SimContext.annotation(p, Strimzi.CONFIG_HASH_ANNOTATION)));
        }
    }

    /**
     * Takes the PodSet's revision as the target for the current spec when the simulator did not render it:
     * for a settled cluster (a seed), or for a roll in progress whose configuration matches the current spec.
     * Also records the worker configuration of every ConfigMap by its hash.
     */
    void adoptExisting() {
        for (ConfigMap cm : ctx.client().configMaps().inAnyNamespace().list().getItems()) {
            String text = cm.getData() == null ? null : cm.getData().get(Strimzi.CONNECT_PROPERTIES_KEY);
            if (text != null && cm.getMetadata().getName().endsWith(Strimzi.configMapName(""))) {
                ctx.memory().workerConfigs.put(Strimzi.sha1Prefix(text), text);
            }
        }
        for (GenericKubernetesResource kc : ctx.kc().inAnyNamespace().list().getItems()) {
            String ns = kc.getMetadata().getNamespace();
            String name = kc.getMetadata().getName();
            GenericKubernetesResource ps = ctx.sps().inNamespace(ns).withName(Strimzi.podSetName(name)).get();
            if (ps == null) {
                continue;
            }
            Set<String> revisions = new HashSet<>();
            for (Object t : JsonMaps.list(JsonMaps.at(ps.getAdditionalProperties(), "spec", "pods"))) {
                revisions.add(JsonMaps.str(JsonMaps.map(t), "metadata", "annotations", Strimzi.REVISION_ANNOTATION));
            }
            if (revisions.size() != 1 || revisions.contains(null)) {
                continue;
            }
            String rev = revisions.iterator().next();
            List<Pod> pods = ctx.workerPods(ns, name);
            boolean mixed = pods.stream().anyMatch(p -> !rev.equals(SimContext.annotation(p, Strimzi.REVISION_ANNOTATION)));
            boolean settled = SimContext.settled(kc);
            if (!settled && !mixed) {
                continue;
            }
            String fileText = configMapText(ns, name);
            String envText = pods.stream().filter(p -> rev.equals(SimContext.annotation(p, Strimzi.REVISION_ANNOTATION)))
                    .map(SimContext::envConfiguration).filter(Objects::nonNull).findFirst().orElse(null);
            if (!settled && !WorkerConfig.carries(SimContext.spec(kc), fileText != null ? fileText : envText)) {
                continue; // the PodSet was rolled out for an older spec: render the current one
            }
            ctx.memory().adoptions.put(ns + "/" + name, new OperatorMemory.Adoption(WorkerConfig.fingerprint(SimContext.spec(kc)), rev,
                    fileText, envText));
        }
    }

    /** @return what the pods of {@code kc} must run: an adopted revision for an unchanged spec, else the rendering */
    Target targetFor(GenericKubernetesResource kc) {
        String ns = kc.getMetadata().getNamespace();
        String name = kc.getMetadata().getName();
        Map<String, Object> spec = SimContext.spec(kc);
        boolean newStyle = ctx.api() == StrimziApi.V1
                || ctx.client().configMaps().inNamespace(ns).withName(Strimzi.configMapName(name)).get() != null;
        WorkerConfig.Rendered rendered = WorkerConfig.render(spec, ctx.api());
        OperatorMemory.Adoption a = ctx.memory().adoptions.get(ns + "/" + name);
        if (a != null && a.fingerprint().equals(WorkerConfig.fingerprint(spec))) {
            if (newStyle) {
                String file = a.fileText() != null ? a.fileText() : rendered.fileText();
                return new Target(a.revision(), Strimzi.sha1Prefix(file), file, null, true);
            }
            return new Target(a.revision(), null, null, a.envText() != null ? a.envText() : rendered.body(), false);
        }
        String revision = WorkerConfig.revision(spec, rendered);
        return newStyle
                ? new Target(revision, rendered.configurationHash(), rendered.fileText(), null, true)
                : new Target(revision, null, null, rendered.body(), false);
    }

    /**
     * Writes the objects of one reconcile before its roll: the ConfigMap (ConfigMap style, recording the text
     * by hash), the PodSet with {@code replicas} templates, and removes surplus pods (highest name first).
     */
    void apply(GenericKubernetesResource kc, int replicas, Target target) {
        if (target.newStyle()) {
            upsertConfigMap(kc, target.fileText());
            ctx.memory().workerConfigs.put(target.configHash(), target.fileText());
        }
        upsertPodSet(kc, replicas, target);
        scaleDown(kc, replicas);
        updateStatus(kc.getMetadata().getNamespace(), kc.getMetadata().getName());
    }

    /** Replaces pod {@code ordinal} of {@code kc} (deleting {@code existing}, if any) and starts the new one. */
    void replacePod(GenericKubernetesResource kc, int ordinal, Pod existing, Target target) {
        if (existing != null) {
            kubelet.delete(existing);
        }
        Pod created = createPod(kc, podTemplate(kc, ordinal, target), target);
        kubelet.start(created.getMetadata().getNamespace(), created.getMetadata().getName(), created.getMetadata().getUid());
        updateStatus(kc.getMetadata().getNamespace(), kc.getMetadata().getName());
    }

    /** Re-creates a deleted worker pod from its PodSet template, as the StrimziPodSet controller does. */
    void recreate(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        String podName = pod.getMetadata().getName();
        String cluster = SimContext.label(pod, Strimzi.CLUSTER_LABEL);
        GenericKubernetesResource kc = ctx.kc().inNamespace(ns).withName(cluster).get();
        GenericKubernetesResource ps = ctx.sps().inNamespace(ns).withName(Strimzi.podSetName(cluster)).get();
        if (kc == null || ps == null || ctx.client().pods().inNamespace(ns).withName(podName).get() != null) {
            return;
        }
        for (Object t : JsonMaps.list(JsonMaps.at(ps.getAdditionalProperties(), "spec", "pods"))) {
            Map<String, Object> template = JsonMaps.map(t);
            if (podName.equals(JsonMaps.str(template, "metadata", "name"))) {
                Pod p = createPod(kc, template, targetFor(kc));
                kubelet.start(ns, podName, p.getMetadata().getUid());
                updateStatus(ns, cluster);
                return;
            }
        }
    }

    /** Forgets the PodSet of a deleted KafkaConnect, which its reconciler deleted. */
    void forget(String ns, String name) {
        podSets.remove(ns + "/" + name);
    }

    /** Writes the PodSet's {@code status} (pods, readyPods, currentPods) when it changed. */
    void updateStatus(String ns, String cluster) {
        try {
            GenericKubernetesResource ps = podSets.get(ns + "/" + cluster);
            if (ps == null) {
                ps = ctx.sps().inNamespace(ns).withName(Strimzi.podSetName(cluster)).get();
                if (ps == null) {
                    return;
                }
                podSets.put(ns + "/" + cluster, ps);
            }
            Map<String, String> wanted = new HashMap<>();
            for (Object t : JsonMaps.list(JsonMaps.at(ps.getAdditionalProperties(), "spec", "pods"))) {
                Map<String, Object> template = JsonMaps.map(t);
                wanted.put(JsonMaps.str(template, "metadata", "name"),
                        JsonMaps.str(template, "metadata", "annotations", Strimzi.REVISION_ANNOTATION));
            }
            List<Pod> pods = ctx.workerPods(ns, cluster).stream()
                    .filter(p -> wanted.containsKey(p.getMetadata().getName())).toList();
            Predicate<Pod> current = p -> Objects.equals(wanted.get(p.getMetadata().getName()),
                    SimContext.annotation(p, Strimzi.REVISION_ANNOTATION));
            podSets.put(ns + "/" + cluster, writeStatus(ctx, ps, pods, current));
        } catch (KubernetesClientException e) {
            podSets.remove(ns + "/" + cluster);
            LOG.log(Level.FINE, "could not update the status of StrimziPodSet " + ns + "/" + Strimzi.podSetName(cluster), e);
        }
    }

    /**
     * Writes the {@code status} of PodSet {@code ps} (observed generation, pods, readyPods, currentPods) when it changed.
     *
     * @param pods    the pods of the PodSet
     * @param current tells a pod on its current template
     * @return the PodSet as the API server holds it afterwards
     */
    static GenericKubernetesResource writeStatus(SimContext ctx, GenericKubernetesResource ps, List<Pod> pods,
                                                 Predicate<Pod> current) {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("observedGeneration", SimContext.generation(ps));
        status.put("pods", pods.size());
        status.put("readyPods", (int) pods.stream().filter(SimContext::ready).count());
        status.put("currentPods", (int) pods.stream().filter(current).count());
        if (JsonMaps.canonicalJson(status).equals(JsonMaps.canonicalJson(ps.getAdditionalProperties().get("status")))) {
            return ps;
        }
        ps.setAdditionalProperty("status", status);
        return ctx.sps().inNamespace(ps.getMetadata().getNamespace()).resource(ps).updateStatus();
    }

    /** @return worker pods created so far (rolls, scale-ups and re-creations); thread-safe */
    long podsCreated() {
        return podsCreated.get();
    }

    /** @return the Kafka version of {@code spec}, or the default of the Strimzi version that serves the API */
    String kafkaVersion(Map<String, Object> spec) {
        Object v = spec.get("version");
        return v != null ? v.toString() : ctx.api() == StrimziApi.V1 ? "4.1.1" : "3.9.0";
    }

    private String configMapText(String ns, String name) {
        ConfigMap cm = ctx.client().configMaps().inNamespace(ns).withName(Strimzi.configMapName(name)).get();
        return cm == null || cm.getData() == null ? null : cm.getData().get(Strimzi.CONNECT_PROPERTIES_KEY);
    }

    private void upsertConfigMap(GenericKubernetesResource kc, String fileText) {
        String name = kc.getMetadata().getName();
        writeConfigMap(ctx, kc.getMetadata().getNamespace(), Strimzi.configMapName(name), selectorLabels(name), fileText);
    }

    private void upsertPodSet(GenericKubernetesResource kc, int replicas, Target target) {
        String name = kc.getMetadata().getName();
        List<Object> pods = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            pods.add(podTemplate(kc, i, target));
        }
        podSets.put(kc.getMetadata().getNamespace() + "/" + name,
                writePodSet(ctx, kc.getMetadata().getNamespace(), Strimzi.podSetName(name), selectorLabels(name), pods));
    }

    /**
     * Creates ConfigMap {@code ns/name} holding the worker configuration {@code fileText}, or updates it when it
     * holds another.
     */
    static void writeConfigMap(SimContext ctx, String ns, String name, Map<String, String> labels, String fileText) {
        ConfigMap existing = ctx.client().configMaps().inNamespace(ns).withName(name).get();
        if (existing != null && existing.getData() != null
                && fileText.equals(existing.getData().get(Strimzi.CONNECT_PROPERTIES_KEY))) {
            return;
        }
        ConfigMap cm = new ConfigMapBuilder()
                .withMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).withLabels(labels).build())
                .withData(Map.of(Strimzi.CONNECT_PROPERTIES_KEY, fileText)).build();
        if (existing == null) {
            ctx.client().configMaps().inNamespace(ns).resource(cm).create();
        } else {
            existing.setData(new LinkedHashMap<>(existing.getData() == null ? Map.of() : existing.getData()));
            existing.getData().put(Strimzi.CONNECT_PROPERTIES_KEY, fileText);
            ctx.client().configMaps().inNamespace(ns).resource(existing).update();
        }
    }

    /**
     * Creates StrimziPodSet {@code ns/name} with the pod {@code templates}, or updates its spec when it differs.
     *
     * @return the PodSet as the API server holds it afterwards
     */
    static GenericKubernetesResource writePodSet(SimContext ctx, String ns, String name, Map<String, String> selector,
                                                 List<Object> templates) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("selector", Map.of("matchLabels", selector));
        spec.put("pods", templates);
        GenericKubernetesResource ps = ctx.sps().inNamespace(ns).withName(name).get();
        if (ps == null) {
            GenericKubernetesResource created = new GenericKubernetesResource();
            created.setApiVersion(ctx.api().coreApiVersion());
            created.setKind(StrimziCrds.STRIMZI_POD_SET);
            created.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).withLabels(selector).build());
            created.setAdditionalProperty("spec", spec);
            return ctx.sps().inNamespace(ns).resource(created).create();
        }
        if (!JsonMaps.canonicalJson(spec).equals(JsonMaps.canonicalJson(ps.getAdditionalProperties().get("spec")))) {
            ps.setAdditionalProperty("spec", spec);
            return ctx.sps().inNamespace(ns).resource(ps).update();
        }
        return ps;
    }

    private void scaleDown(GenericKubernetesResource kc, int replicas) {
        String ns = kc.getMetadata().getNamespace();
        String name = kc.getMetadata().getName();
        List<Pod> surplus = new ArrayList<>();
        for (Pod p : ctx.workerPods(ns, name)) {
            Integer ordinal = Strimzi.podOrdinal(name, p.getMetadata().getName());
            if (ordinal == null || ordinal >= replicas) {
                surplus.add(p);
            }
        }
        surplus.sort(Comparator.comparing((Pod p) -> p.getMetadata().getName()).reversed());
        for (Pod p : surplus) {
            kubelet.delete(p);
        }
    }

    private Map<String, Object> podTemplate(GenericKubernetesResource kc, int ordinal, Target target) {
        String name = kc.getMetadata().getName();
        Map<String, Object> spec = SimContext.spec(kc);
        String podName = Strimzi.podName(name, ordinal);
        Map<String, String> labels = new LinkedHashMap<>(selectorLabels(name));
        labels.put("strimzi.io/pod-name", podName);
        labels.put("strimzi.io/controller", "strimzipodset");
        labels.put("strimzi.io/controller-name", Strimzi.podSetName(name));
        labels.put("strimzi.io/component-type", "kafka-connect");
        labels.put("app.kubernetes.io/name", "kafka-connect");
        labels.put("app.kubernetes.io/instance", name);
        labels.put("app.kubernetes.io/part-of", "strimzi-" + name);
        labels.put(Strimzi.MANAGED_BY_LABEL, "strimzi-cluster-operator");
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(Strimzi.REVISION_ANNOTATION, target.revision());
        if (target.configHash() != null) {
            annotations.put(Strimzi.CONFIG_HASH_ANNOTATION, target.configHash());
        }
        List<Object> env = new ArrayList<>();
        env.add(Map.of("name", "KAFKA_CONNECT_BOOTSTRAP_SERVERS", "value", String.valueOf(spec.getOrDefault("bootstrapServers", ""))));
        if (target.envText() != null) {
            env.add(Map.of("name", Strimzi.CONNECT_CONFIGURATION_ENV, "value", target.envText()));
        }
        env.addAll(WorkerAuthentication.env(spec));
        Map<String, Object> container = new LinkedHashMap<>();
        container.put("name", Strimzi.podSetName(name));
        container.put("image", image(spec));
        container.put("ports", List.of(Map.of("containerPort", Strimzi.CONNECT_REST_PORT, "name", "rest-api", "protocol", "TCP")));
        container.put("env", env);
        container.put("readinessProbe", Map.of("httpGet", Map.of("path", ctx.api() == StrimziApi.V1 ? "/health" : "/",
                "port", "rest-api")));
        Map<String, Object> podSpec = new LinkedHashMap<>();
        podSpec.put("hostname", podName);
        podSpec.put("subdomain", Strimzi.podSetName(name));
        podSpec.put("containers", List.of(container));
        String passwordSecret = WorkerAuthentication.passwordSecret(spec);
        if (passwordSecret != null) {
            container.put("volumeMounts", List.of(Map.of("name", passwordSecret,
                    "mountPath", WorkerAuthentication.PASSWORD_MOUNT + passwordSecret)));
            podSpec.put("volumes", List.of(Map.of("name", passwordSecret, "secret", Map.of("secretName", passwordSecret))));
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", podName);
        metadata.put("labels", labels);
        metadata.put("annotations", annotations);
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        pod.put("metadata", metadata);
        pod.put("spec", podSpec);
        return pod;
    }

    private Pod createPod(GenericKubernetesResource kc, Map<String, Object> template, Target fallback) {
        String ns = kc.getMetadata().getNamespace();
        Map<String, Object> body = JsonMaps.deepCopy(template);
        if (!(JsonMaps.at(body, "spec", "containers") instanceof List<?> l) || l.isEmpty()) {
            Integer ordinal = Strimzi.podOrdinal(kc.getMetadata().getName(), JsonMaps.str(body, "metadata", "name"));
            Map<String, Object> full = podTemplate(kc, ordinal == null ? 0 : ordinal, fallback);
            Map<String, Object> annotations = JsonMaps.map(JsonMaps.at(body, "metadata", "annotations"));
            if (annotations != null) {
                Map<String, Object> fullAnn = JsonMaps.map(JsonMaps.at(full, "metadata", "annotations"));
                fullAnn.putAll(annotations);
            }
            body = full;
        }
        Pod created = createPod(ctx, kubelet, ns, body, Strimzi.podSetName(kc.getMetadata().getName()));
        podsCreated.incrementAndGet();
        return created;
    }

    /** @return a pod created from one of a PodSet's templates, Pending until the kubelet starts it */
    static Pod createPod(SimContext ctx, Kubelet kubelet, String ns, Map<String, Object> template, String podSetName) {
        Pod pod = JsonMaps.convert(template, Pod.class);
        pod.getMetadata().setNamespace(ns);
        pod.setStatus(kubelet.pendingStatus(ns + "/" + pod.getMetadata().getName(), podSetName));
        return ctx.client().pods().inNamespace(ns).resource(pod).create();
    }

    private String image(Map<String, Object> spec) {
        Object image = spec.get("image");
        if (image != null) {
            return image.toString();
        }
        return "quay.io/strimzi/kafka:" + (ctx.api() == StrimziApi.V1 ? "1.0.0" : "0.45.0") + "-kafka-" + kafkaVersion(spec);
    }

    private static Map<String, String> selectorLabels(String cluster) {
        Map<String, String> l = new LinkedHashMap<>();
        l.put(Strimzi.CLUSTER_LABEL, cluster);
        l.put(Strimzi.NAME_LABEL, Strimzi.podSetName(cluster));
        l.put(Strimzi.KIND_LABEL, Strimzi.KAFKA_CONNECT_KIND);
        return l;
    }
}
