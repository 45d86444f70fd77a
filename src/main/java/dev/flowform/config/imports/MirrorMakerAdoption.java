package dev.flowform.config.imports;

import dev.flowform.config.syntax.Formatter;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.Maps;
import dev.flowform.model.strimzi.KafkaMirrorMaker2Manifest;
import dev.flowform.plan.rules.ConnectorRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code mirrormaker2} file of one KafkaMirrorMaker2 (either layout): what the resource sets, verbatim, so the next
 * plan changes nothing; placeholders escaped, and left out with the reason: the keys flowform sets itself, keys the
 * configuration refuses, literal credentials, and what the block does not model. Pure.
 */
final class MirrorMakerAdoption {

    /** The fields of a cluster entry the block models. */
    private static final Set<String> CLUSTER_FIELDS = Set.of("alias", "bootstrapServers", "config");
    /** The fields of a mirror entry the block models. */
    private static final Set<String> MIRROR_FIELDS = Set.of("source", "sourceCluster", "targetCluster", "sourceConnector",
            "checkpointConnector", "topicsPattern", "groupsPattern");

    private MirrorMakerAdoption() {
    }

    /** @return the file {@code <name>.mirrormaker2.flow.json} of {@code m}; what is not written goes to {@code leftOut} */
    static Adoption.File file(LiveMirrorMaker2 m, boolean exactlyOnce, List<Adoption.LeftOut> leftOut) {
        String who = "KafkaMirrorMaker2 " + m.namespace() + "/" + m.name();
        List<Node> mirrors = new ArrayList<>();
        boolean anyExactlyOnce = false;
        for (LiveMirrorMaker2.Mirror mirror : m.mirrors()) {
            if (mirror.source() == null) {
                leftOut.add(new Adoption.LeftOut(who + " mirror without a source alias", "a mirror block needs its source alias"));
                continue;
            }
            boolean eos = exactlyOnce || ConnectorRules.isRequired(mirror.sourceConfig().get(ConnectorRules.EXACTLY_ONCE_SUPPORT));
            anyExactlyOnce |= eos;
            mirrors.add(mirror(m, mirror, eos, who, leftOut));
        }
        Map<String, Object> spec = m.workers().spec();
        Node body = new Node().put("manage", "adopt").put("namespace", m.namespace());
        if (spec.get("replicas") instanceof Number n) {
            body.put("replicas", n.longValue());
        }
        if (spec.get("version") != null) {
            body.put("version", AdoptionWriter.escape(spec.get("version").toString()));
        }
        Optional<EosMode> workers = m.workers().eosMode();
        if (!anyExactlyOnce && workers.isPresent() && workers.get() != EosMode.DISABLED) {
            body.put("exactly_once_source_support", workers.get().value());
        }
        if (m.target() != null) {
            body.put("target", target(m, who, leftOut));
        }
        body.put("mirror", mirrors);
        Node root = new Node().put("//", "Adopted by flowform import from namespace " + m.namespace() + ": flowform owns "
                + "the exactly-once keys and what is declared here; the rest is left as it is.");
        root.put("mirrormaker2", new Node().put(m.name(), body));
        return new Adoption.File(m.name() + ".mirrormaker2.flow.json", Formatter.format(root.build()));
    }

    /** @return the target block: alias, bootstrap servers, the worker configuration without the exactly-once mode */
    private static Node target(LiveMirrorMaker2 m, String who, List<Adoption.LeftOut> leftOut) {
        Map<String, Object> spec = m.workers().spec();
        Map<String, Object> entry = m.v1Layout() ? Maps.object(spec.get("target")) : LiveMirrorMaker2.cluster(spec, m.target());
        String where = who + (m.v1Layout() ? " spec.target" : " spec.clusters[alias=" + m.target() + "]");
        Node target = cluster(entry);
        Set<String> modelled = new TreeSet<>(CLUSTER_FIELDS);
        Node config = new Node();
        if (m.v1Layout()) {
            KafkaMirrorMaker2Manifest.V1_TARGET_FIELDS.forEach((key, field) -> {
                modelled.add(field);
                if (entry.get(field) != null) {
                    config.put(key, AdoptionWriter.escape(entry.get(field).toString()));
                }
            });
        }
        Map<String, Object> worker = Maps.object(entry.get("config"));
        clusterConfig(worker, where + ".config", config, leftOut);
        if (!config.isEmpty()) {
            target.put("config", config);
        }
        unmodelled(entry, modelled, where, leftOut);
        return target;
    }

    /** @return a cluster block's alias and bootstrap servers */
    private static Node cluster(Map<String, Object> entry) {
        Node n = new Node().put("alias", AdoptionWriter.escape(String.valueOf(entry.get("alias"))));
        if (entry.get("bootstrapServers") != null) {
            n.put("bootstrap_servers", AdoptionWriter.escape(entry.get("bootstrapServers").toString()));
        }
        return n;
    }

    /** Adds a cluster's config entries that the configuration may declare. */
    private static void clusterConfig(Map<String, Object> config, String where, Node out, List<Adoption.LeftOut> leftOut) {
        config.forEach((k, v) -> {
            if (k.equals(EosMode.CONFIG_KEY) || v == null) {
                return;
            }
            String reason = k.endsWith("isolation.level") ? "MirrorMaker 2 drops isolation.level in a cluster's config "
                    + "(only client connection keys reach its consumers); the configuration refuses it there, and adopt leaves "
                    + "it as it is" : AdoptionWriter.literalCredential(k, v.toString());
            if (reason != null) {
                leftOut.add(new Adoption.LeftOut(where + " " + k, reason));
            } else {
                out.put(k, AdoptionWriter.escape(v.toString()));
            }
        });
    }

    /** @return the mirror block of one entry */
    private static Node mirror(LiveMirrorMaker2 m, LiveMirrorMaker2.Mirror mirror, boolean eos, String who,
                               List<Adoption.LeftOut> leftOut) {
        Map<String, Object> raw = mirror.raw();
        String where = who + " spec.mirrors" + (m.v1Layout() ? "[source.alias=" : "[sourceCluster=") + mirror.source() + "]";
        Map<String, Object> sourceEntry = m.v1Layout() ? Maps.object(raw.get("source"))
                : LiveMirrorMaker2.cluster(m.workers().spec(), mirror.source());
        String sourceWhere = m.v1Layout() ? where + ".source" : who + " spec.clusters[alias=" + mirror.source() + "]";
        Node source = sourceEntry.isEmpty() ? new Node().put("alias", AdoptionWriter.escape(mirror.source()))
                : cluster(sourceEntry);
        Node sourceConfig = new Node();
        clusterConfig(Maps.object(sourceEntry.get("config")), sourceWhere + ".config", sourceConfig, leftOut);
        if (!sourceConfig.isEmpty()) {
            source.put("config", sourceConfig);
        }
        unmodelled(sourceEntry, CLUSTER_FIELDS, sourceWhere, leftOut);
        Node n = new Node().put("source", source);
        if (raw.get("topicsPattern") != null) {
            n.put("topics", AdoptionWriter.escape(raw.get("topicsPattern").toString()));
        }
        if (raw.get("groupsPattern") != null) {
            n.put("groups", AdoptionWriter.escape(raw.get("groupsPattern").toString()));
        }
        Map<String, Object> sc = Maps.object(raw.get("sourceConnector"));
        if (sc.get("tasksMax") instanceof Number t) {
            n.put("tasks_max", t.longValue());
        }
        connector(n, "source_connector", mirror.sourceConfig(), where + ".sourceConnector.config", leftOut,
                Set.of(ConnectorRules.EXACTLY_ONCE_SUPPORT, ConnectorRules.SOURCE_ISOLATION_LEVEL));
        connector(n, "checkpoint_connector", mirror.checkpointConfig(), where + ".checkpointConnector.config", leftOut,
                Set.of(ConnectorRules.EXACTLY_ONCE_SUPPORT));
        n.put("exactly_once", eos);
        unmodelled(raw, MIRROR_FIELDS, where, leftOut);
        unmodelled(sc, Set.of("config", "tasksMax"), where + ".sourceConnector", leftOut);
        unmodelled(Maps.object(raw.get("checkpointConnector")), Set.of("config"), where + ".checkpointConnector", leftOut);
        return n;
    }

    /** Adds a connector's config, without the keys flowform sets and literal credentials. */
    private static void connector(Node mirror, String name, Map<String, String> config, String where,
                                  List<Adoption.LeftOut> leftOut, Set<String> flowformKeys) {
        Node out = new Node();
        config.forEach((k, v) -> {
            if (flowformKeys.contains(k)) {
                return;
            }
            String reason = AdoptionWriter.literalCredential(k, v);
            if (reason != null) {
                leftOut.add(new Adoption.LeftOut(where + " " + k, reason));
            } else {
                out.put(k, AdoptionWriter.escape(v));
            }
        });
        if (!out.isEmpty()) {
            mirror.put(name, out);
        }
    }

    /** Lists the fields of {@code entry} the block does not model; adopt leaves them (and their Secret references). */
    private static void unmodelled(Map<String, Object> entry, Set<String> modelled, String where,
                                   List<Adoption.LeftOut> leftOut) {
        entry.forEach((k, v) -> {
            if (!modelled.contains(k)) {
                Set<String> secrets = new TreeSet<>();
                secretNames(v, secrets);
                leftOut.add(new Adoption.LeftOut(where + "." + k, "the mirrormaker2 block does not model it; adopt leaves it "
                        + "as it is" + (secrets.isEmpty() ? "" : ", with its reference to Secret " + String.join(", ", secrets))));
            }
        });
    }

    /** Collects every {@code secretName} under {@code v} (Strimzi's Secret references). */
    private static void secretNames(Object v, Set<String> out) {
        if (v instanceof Map<?, ?> m) {
            m.forEach((k, x) -> {
                if ("secretName".equals(k) && x != null) {
                    out.add(x.toString());
                } else {
                    secretNames(x, out);
                }
            });
        } else if (v instanceof List<?> l) {
            l.forEach(x -> secretNames(x, out));
        }
    }
}
