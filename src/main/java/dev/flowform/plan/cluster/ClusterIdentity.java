package dev.flowform.plan.cluster;

import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A Connect cluster's exactly-once identity (KIP-618): the group id, from which the transactional IDs derive,
 * and the storage topics, where the source offsets and the connector configurations live. Finds what a plan
 * changes of it and says what that does. Pure.
 */
final class ClusterIdentity {

    private ClusterIdentity() {
    }

    /** Strimzi v1 fields of the cluster's identity, in the order of {@link LiveConnectCluster#V1_FORBIDDEN_CONFIG_KEYS}. */
    private static final List<String> V1_IDENTITY_FIELDS =
            List.of("groupId", "configStorageTopic", "offsetStorageTopic", "statusStorageTopic");

    /**
     * A change this plan makes to the group id or a storage topic.
     *
     * @param index  0 group id, 1 config topic, 2 offsets topic, 3 status topic
     * @param field  the field as the plan shows it, e.g. {@code spec.config."group.id"} or {@code spec.groupId}
     * @param before the value the workers use now (Strimzi's default for an unset v1beta2 key), null when unset
     * @param after  the value after the plan, null when the plan removes a v1 field
     */
    record IdentityEdit(int index, String field, String before, String after) {
    }

    /**
     * Where a resource keeps its identity, in the live object's layout: a KafkaConnect in {@code spec.config} or
     * ({@code v1}) as {@code spec} fields; a KafkaMirrorMaker2 in its target cluster's {@code config} or ({@code v1})
     * as {@code spec.target} fields.
     *
     * @param v1         true when the identity is kept in fields
     * @param configPath the path of the worker configuration, e.g. {@code [spec, config]}
     * @param fieldPath  the path of the object holding the fields, e.g. {@code [spec]} or {@code [spec, target]}
     * @param config     the live worker configuration
     * @param fields     the live object holding the fields
     * @param defaults   the operator's group id and storage topics when unset ({@code v1beta2})
     */
    record Places(boolean v1, List<String> configPath, List<String> fieldPath, java.util.Map<String, String> config,
                  java.util.Map<?, ?> fields, List<String> defaults) {

        /** @return the offsets topic the workers use now */
        String offsetsTopic() {
            return v1 ? String.valueOf(fields.get("offsetStorageTopic"))
                    : config.getOrDefault("offset.storage.topic", defaults.get(2));
        }
    }

    /** Strimzi's defaults of a KafkaConnect's group id and storage topics ({@code v1beta2}). */
    static final List<String> CONNECT_DEFAULTS = List.of(Strimzi.DEFAULT_GROUP_ID, Strimzi.DEFAULT_CONFIG_STORAGE_TOPIC,
            Strimzi.DEFAULT_OFFSET_STORAGE_TOPIC, Strimzi.DEFAULT_STATUS_STORAGE_TOPIC);

    /** @return the identity changes among {@code edits}, group id first; empty when none changes a value */
    static List<IdentityEdit> edits(Places at, List<FieldEdit> edits) {
        List<IdentityEdit> out = new ArrayList<>();
        for (FieldEdit e : edits) {
            List<String> p = e.path();
            if (at.v1()) {
                int n = at.fieldPath().size();
                int i = p.size() == n + 1 && p.subList(0, n).equals(at.fieldPath()) ? V1_IDENTITY_FIELDS.indexOf(p.get(n)) : -1;
                if (i >= 0) {
                    Object have = at.fields().get(p.get(n));
                    out.add(new IdentityEdit(i, String.join(".", at.fieldPath()) + "." + p.get(n),
                            have == null ? null : have.toString(), e.remove() ? null : String.valueOf(e.value())));
                }
            } else {
                int n = at.configPath().size();
                int i = p.size() == n + 1 && p.subList(0, n).equals(at.configPath())
                        ? LiveConnectCluster.V1_FORBIDDEN_CONFIG_KEYS.indexOf(p.get(n)) : -1;
                if (i >= 0) {
                    String def = at.defaults().get(i);
                    out.add(new IdentityEdit(i, String.join(".", at.configPath()).replace(".[", "[") + "."
                            + Json.render(p.get(n)), at.config().getOrDefault(p.get(n), def), e.remove() ? def
                            : String.valueOf(e.value())));
                }
            }
        }
        out.removeIf(i -> Objects.equals(i.before(), i.after()));
        out.sort(Comparator.comparingInt(IdentityEdit::index));
        return out;
    }

    static String describe(List<IdentityEdit> identity) {
        List<String> parts = new ArrayList<>();
        for (IdentityEdit i : identity) {
            parts.add(i.field() + " " + shown(i.before()) + " -> " + (i.after() == null ? "(removed; kafka.strimzi.io/v1 "
                    + "requires it)" : Json.render(i.after())));
        }
        return String.join(", ", parts);
    }

    private static String shown(String value) {
        return value == null ? "(not set)" : Json.render(value);
    }

    private static IdentityEdit find(List<IdentityEdit> identity, int index) {
        return identity.stream().filter(i -> i.index() == index).findFirst().orElse(null);
    }

    /** @return what a new identity does to transactional IDs, fencing and source offsets, as sentences */
    static String consequences(Places at, List<IdentityEdit> identity) {
        StringBuilder sb = new StringBuilder();
        IdentityEdit group = find(identity, 0);
        IdentityEdit configs = find(identity, 1);
        IdentityEdit offsets = find(identity, 2);
        IdentityEdit status = find(identity, 3);
        if (group != null) {
            String o = group.before() == null ? "<spec.groupId>" : group.before();
            String n = group.after() == null ? "<spec.groupId>" : group.after();
            sb.append("The transactional IDs derive from the group id: the workers' leader goes from connect-cluster-")
                    .append(o).append(" to connect-cluster-").append(n).append(", every task from ").append(o)
                    .append("-<connector>-<task> to ").append(n).append("-<connector>-<task>. Zombie fencing only fences the "
                            + "IDs of the cluster's own group, so the new identity cannot fence producers of the old one: "
                            + "while the workers roll, workers of the old and of the new group both run the connectors, and "
                            + "records they both replicate are written twice. ");
        }
        if (offsets != null) {
            sb.append("The connectors' source offsets are in ").append(shown(offsets.before())).append("; the workers would "
                    + "read ").append(offsets.after() == null ? "no offsets topic" : Json.render(offsets.after()))
                    .append(", which has none for them, so MirrorSourceConnector starts again from the source topics' "
                            + "earliest offsets (or as source.consumer.auto.offset.reset says) and replicates every record "
                            + "again: duplicates in the target topics. ");
        } else if (group != null) {
            sb.append("The source offsets stay in ").append(Json.render(at.offsetsTopic())).append(". ");
        }
        if (configs != null) {
            sb.append("The connector and task configurations are in ").append(shown(configs.before()))
                    .append("; the workers run no connector until the operator has written them again to the new topic. ");
        }
        if (status != null) {
            sb.append("Connector and task statuses start empty in the new status topic. ");
        }
        return sb.toString();
    }

    /** @return the words of {@link dev.flowform.plan.ChangeReason#NEW_CLUSTER_IDENTITY} for these changes */
    static String reason(List<IdentityEdit> identity) {
        List<String> parts = new ArrayList<>();
        IdentityEdit group = find(identity, 0);
        if (group != null) {
            parts.add("group id " + shown(group.before()) + " -> " + shown(group.after()) + ": new transactional IDs, the "
                    + "old ones not fenced");
        }
        IdentityEdit offsets = find(identity, 2);
        if (offsets != null) {
            parts.add("offsets topic " + shown(offsets.before()) + " -> " + shown(offsets.after()) + ": source offsets not "
                    + "carried over, replication starts again from the earliest offsets");
        }
        if (parts.isEmpty()) {
            parts.add("storage topics " + describe(identity));
        }
        return String.join("; ", parts);
    }
}
