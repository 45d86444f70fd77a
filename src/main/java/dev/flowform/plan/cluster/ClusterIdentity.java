package dev.flowform.plan.cluster;

import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.StrimziApi;
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

    /** @return the identity changes among {@code edits}, group id first; empty when none changes a value */
    static List<IdentityEdit> edits(LiveConnectCluster c, List<FieldEdit> edits) {
        List<String> defaults = List.of(Strimzi.DEFAULT_GROUP_ID, Strimzi.DEFAULT_CONFIG_STORAGE_TOPIC,
                Strimzi.DEFAULT_OFFSET_STORAGE_TOPIC, Strimzi.DEFAULT_STATUS_STORAGE_TOPIC);
        List<IdentityEdit> out = new ArrayList<>();
        for (FieldEdit e : edits) {
            List<String> p = e.path();
            if (c.api() == StrimziApi.V1) {
                int i = p.size() == 2 && p.get(0).equals("spec") ? V1_IDENTITY_FIELDS.indexOf(p.get(1)) : -1;
                if (i >= 0) {
                    Object have = c.spec().get(p.get(1));
                    out.add(new IdentityEdit(i, "spec." + p.get(1), have == null ? null : have.toString(),
                            e.remove() ? null : String.valueOf(e.value())));
                }
            } else {
                int i = p.size() == 3 && p.get(0).equals("spec") && p.get(1).equals("config")
                        ? LiveConnectCluster.V1_FORBIDDEN_CONFIG_KEYS.indexOf(p.get(2)) : -1;
                if (i >= 0) {
                    String def = defaults.get(i);
                    out.add(new IdentityEdit(i, "spec.config." + Json.render(p.get(2)), c.config().getOrDefault(p.get(2), def),
                            e.remove() ? def : String.valueOf(e.value())));
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
    static String consequences(LiveConnectCluster c, List<IdentityEdit> identity) {
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
            String topic = c.api() == StrimziApi.V1 ? String.valueOf(c.spec().get("offsetStorageTopic"))
                    : c.config().getOrDefault("offset.storage.topic", Strimzi.DEFAULT_OFFSET_STORAGE_TOPIC);
            sb.append("The source offsets stay in ").append(Json.render(topic)).append(". ");
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
