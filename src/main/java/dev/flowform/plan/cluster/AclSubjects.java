package dev.flowform.plan.cluster;

import dev.flowform.model.EosMode;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.StrimziApi;
import dev.flowform.plan.TransactionalId;
import dev.flowform.plan.acl.AclCheck;
import dev.flowform.plan.acl.AclNeed;
import dev.flowform.plan.acl.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whose ACLs a resource's exactly-once needs are, and which (docs/domain-rules.md, rule 10), alike for both kinds:
 * {@code Write} and {@code Describe} on every transactional ID of its plan ({@link TransactionalIds}) and, when source
 * tasks run exactly-once, {@code Describe} on the offsets topic; all of the principal of the workers' cluster: a
 * KafkaConnect's {@code spec.authentication} (as declared, else as live), a KafkaMirrorMaker2's target cluster's
 * ({@code spec.target.authentication} in {@code v1}, its {@code spec.clusters[]} entry in {@code v1beta2}). A
 * KafkaMirrorMaker2's source clusters need nothing new: their consumer only reads, {@code read_committed}. Pure.
 */
final class AclSubjects {

    private AclSubjects() {
    }

    /** @return what to check for the workers' principal, given the transactional IDs the plan needs (maybe none) */
    static AclCheck.Subject of(ClusterFacts f, List<TransactionalId> ids) {
        List<AclNeed> needs = new ArrayList<>();
        for (TransactionalId id : ids) {
            String why = id.task() == null ? "the workers' transactional producer, from preparing"
                    : "task " + id.task() + " of connector " + id.connector() + ", under enabled";
            needs.add(new AclNeed("transactionalId", id.transactionalId(), "Write", why));
            needs.add(new AclNeed("transactionalId", id.transactionalId(), "Describe", why));
        }
        if (ids.stream().anyMatch(id -> id.neededFrom() == EosMode.ENABLED)) {
            needs.add(new AclNeed("topic", offsetsTopic(f), "Describe", "the exactly-once source tasks' offsets"));
        }
        Map<?, ?> authentication;
        String where;
        String bootstrap;
        if (f.kind() instanceof ConnectKind k) {
            Map<?, ?> live = k.live() == null ? Map.of() : k.live().spec();
            authentication = map(k.desired().spec().containsKey("authentication") ? k.desired().spec().get("authentication")
                    : live.get("authentication"));
            where = "spec.authentication";
            bootstrap = k.desired().bootstrapServers() != null ? k.desired().bootstrapServers()
                    : live.get("bootstrapServers") == null ? null : live.get("bootstrapServers").toString();
        } else {
            MirrorMakerKind m = (MirrorMakerKind) f.kind();
            Map<?, ?> target = target(m.live());
            authentication = map(target.get("authentication"));
            where = m.v1() ? "spec.target.authentication" : "spec.clusters[alias=" + m.target() + "].authentication";
            bootstrap = target.get("bootstrapServers") != null ? target.get("bootstrapServers").toString()
                    : m.desired().targetBootstrap();
        }
        return new AclCheck.Subject(f.address(), f.ref().toString(), Principal.of(authentication, where),
                f.desired().namespace(), bootstrap, needs);
    }

    /** @return the live target cluster of a KafkaMirrorMaker2 (its {@code spec.target} or {@code spec.clusters[]} entry) */
    private static Map<?, ?> target(LiveMirrorMaker2 live) {
        if (live == null) {
            return Map.of();
        }
        Map<String, Object> spec = live.workers().spec();
        return live.v1Layout() ? map(spec.get("target")) : LiveMirrorMaker2.cluster(spec, live.target());
    }

    /**
     * @return the offsets topic the workers use: the live one, else the declared {@code offset.storage.topic} (or a
     *         KafkaConnect's {@code v1} {@code spec.offsetStorageTopic}), else Strimzi's default for the kind
     */
    private static String offsetsTopic(ClusterFacts f) {
        if (f.existing() != null) {
            return f.existing().places().offsetsTopic();
        }
        String declared = f.desired().config().get("offset.storage.topic");
        if (declared != null) {
            return declared;
        }
        if (f.kind() instanceof ConnectKind k) {
            Object v1 = k.desired().spec().get("offsetStorageTopic");
            return v1 != null && k.ref().apiVersion().endsWith(StrimziApi.V1.version()) ? v1.toString()
                    : ClusterIdentity.CONNECT_DEFAULTS.get(2);
        }
        return MirrorMakerKind.DEFAULTS.get(2);
    }

    private static Map<?, ?> map(Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }
}
