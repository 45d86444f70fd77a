package dev.flowform.config.imports;

import dev.flowform.config.syntax.Formatter;
import dev.flowform.model.ConnectorRole;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.LiveState;
import dev.flowform.plan.rules.ConnectorRules;
import dev.flowform.plan.rules.Finding;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Writes {@code manage = "adopt"} configuration for what runs in one namespace (like Terraform's
 * {@code plan -generate-config-out}), in {@code fmt}'s layout, so that the next plan changes nothing: per KafkaConnect
 * its cluster and flows, per KafkaMirrorMaker2 its {@code mirrormaker2} block ({@link MirrorMakerAdoption}). Literal
 * credentials are never written; config-provider placeholders are escaped as {@code $${...}}; what is left out is
 * listed with the reason ({@link Adoption#leftOut()}). Pure.
 */
public final class AdoptionWriter {

    /** Keys flowform sets from a flow's arguments and blocks, or that Strimzi sets from the KafkaConnector's spec. */
    private static final Set<String> FROM_ARGUMENTS = Set.of("name", "connector.class", "tasks.max",
            "source.cluster.alias", "target.cluster.alias", ConnectorRules.EXACTLY_ONCE_SUPPORT,
            ConnectorRules.SOURCE_ISOLATION_LEVEL, ConnectorRules.TRANSACTION_BOUNDARY, EosMode.CONFIG_KEY);

    /** Key names that hold credentials (Kafka's {@code Type.PASSWORD} settings and JAAS configurations). */
    private static final Pattern CREDENTIAL_KEY =
            Pattern.compile(".*(password|secret|jaas|token|credential|private|ssl\\.key).*", Pattern.CASE_INSENSITIVE);

    /** A config-provider placeholder {@code ${provider:[path:]key}} (Kafka's {@code ConfigTransformer}). */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{[A-Za-z0-9_.-]+:[^}]*}");

    private AdoptionWriter() {
    }

    /**
     * @param live        what the cluster holds (at least the namespace's KafkaConnects and KafkaConnectors)
     * @param exactlyOnce true to write every flow with exactly-once on
     * @return one file per KafkaConnect, then one per KafkaMirrorMaker2 in {@code namespace} (none when it has neither),
     *         and what was left out
     */
    public static Adoption adopt(LiveState live, String namespace, boolean exactlyOnce) {
        List<Adoption.File> files = new ArrayList<>();
        List<Adoption.LeftOut> leftOut = new ArrayList<>();
        Set<String> clusters = new TreeSet<>();
        List<LiveConnectCluster> inNamespace = live.clusters().stream().filter(c -> c.namespace().equals(namespace))
                .sorted(Comparator.comparing(LiveConnectCluster::name)).toList();
        for (LiveConnectCluster c : inNamespace) {
            clusters.add(c.name());
            files.add(file(c, live.connectorsOf(namespace, c.name()), exactlyOnce, leftOut));
        }
        for (LiveConnector c : live.connectors()) {
            if (c.namespace().equals(namespace) && !clusters.contains(c.connectCluster())) {
                leftOut.add(new Adoption.LeftOut(describe(c), c.connectCluster() == null
                        ? "it has no strimzi.io/cluster label, so no KafkaConnect runs it"
                        : "its strimzi.io/cluster label names \"" + c.connectCluster() + "\", which is not a KafkaConnect "
                        + "in namespace " + namespace));
            }
        }
        live.mirrorMakers().stream().filter(m -> m.namespace().equals(namespace))
                .sorted(Comparator.comparing(LiveMirrorMaker2::name))
                .forEach(m -> files.add(MirrorMakerAdoption.file(m, exactlyOnce, leftOut)));
        return new Adoption(files, leftOut);
    }

    /** @return the file of one KafkaConnect: its block and one flow per group of MirrorMaker 2 connectors */
    private static Adoption.File file(LiveConnectCluster cluster, List<LiveConnector> connectors, boolean exactlyOnce,
                                      List<Adoption.LeftOut> leftOut) {
        Map<String, Map<ConnectorRole, LiveConnector>> groups = group(connectors, leftOut);
        Node flows = new Node();
        boolean anyExactlyOnce = false;
        for (Map.Entry<String, Map<ConnectorRole, LiveConnector>> g : groups.entrySet()) {
            LiveConnector source = g.getValue().get(ConnectorRole.SOURCE);
            if (source == null) {
                g.getValue().values().forEach(c -> leftOut.add(new Adoption.LeftOut(describe(c), "there is no "
                        + g.getKey() + "-source (MirrorSourceConnector): a flow always has its source connector")));
                continue;
            }
            boolean eos = exactlyOnce || ConnectorRules.isRequired(source.config().get(ConnectorRules.EXACTLY_ONCE_SUPPORT));
            anyExactlyOnce |= eos;
            flows.put(g.getKey(), flow(cluster.name(), g.getValue(), eos, leftOut));
        }
        Node body = new Node().put("manage", "adopt").put("namespace", cluster.namespace());
        Optional<EosMode> workers = cluster.eosMode();
        if (!anyExactlyOnce && workers.isPresent() && workers.get() != EosMode.DISABLED) {
            body.put("exactly_once_source_support", workers.get().value());
        }
        Node root = new Node().put("//", "Adopted by flowform import from namespace " + cluster.namespace()
                + ": flowform owns the exactly-once keys and what is declared here; the rest is left as it is.");
        root.put("connect_cluster", new Node().put(cluster.name(), body));
        if (!flows.isEmpty()) {
            root.put("replication_flow", flows);
        }
        return new Adoption.File(cluster.name() + ".flow.json", Formatter.format(root.build()));
    }

    /** @return the MirrorMaker 2 connectors by flow name and role; the others are left out */
    private static Map<String, Map<ConnectorRole, LiveConnector>> group(List<LiveConnector> connectors,
                                                                        List<Adoption.LeftOut> leftOut) {
        Map<String, Map<ConnectorRole, LiveConnector>> groups = new TreeMap<>();
        for (LiveConnector c : connectors) {
            ConnectorRole role = ConnectorRole.ofClass(c.className());
            String suffix = role == null ? null : "-" + role.suffix();
            if (role == null) {
                leftOut.add(new Adoption.LeftOut(describe(c), "class " + c.className() + " is not a MirrorMaker 2 "
                        + "connector (MirrorSourceConnector, MirrorCheckpointConnector, MirrorHeartbeatConnector); "
                        + "flowform manages MirrorMaker 2 flows only"));
            } else if (!c.name().endsWith(suffix) || c.name().length() == suffix.length()) {
                leftOut.add(new Adoption.LeftOut(describe(c), "flowform names a flow's " + role.suffix()
                        + " connector <flow>" + suffix + ", and this name does not end with " + suffix));
            } else {
                String flow = c.name().substring(0, c.name().length() - suffix.length());
                groups.computeIfAbsent(flow, k -> new EnumMap<>(ConnectorRole.class)).put(role, c);
            }
        }
        return groups;
    }

    /** @return the {@code replication_flow} body of one flow */
    private static Node flow(String cluster, Map<ConnectorRole, LiveConnector> roles, boolean eos,
                             List<Adoption.LeftOut> leftOut) {
        Map<String, String> sourceConfig = roles.get(ConnectorRole.SOURCE).config();
        Node flow = new Node().put("manage", "adopt").put("connect_cluster", cluster);
        for (String side : List.of("source", "target")) {
            String alias = sourceConfig.get(side + ".cluster.alias");
            if (alias != null) {
                flow.put(side, new Node().put("alias", escape(alias)));
            }
        }
        if (!roles.containsKey(ConnectorRole.CHECKPOINT)) {
            flow.put("checkpoints", false);
        }
        if (roles.containsKey(ConnectorRole.HEARTBEAT)) {
            flow.put("heartbeats", true);
        }
        flow.put("exactly_once", eos);
        Node perRole = new Node();
        for (Map.Entry<ConnectorRole, LiveConnector> r : roles.entrySet()) {
            Node config = connectorConfig(r.getKey(), r.getValue(), leftOut);
            if (!config.isEmpty()) {
                perRole.put(r.getKey().suffix(), config);
            }
        }
        if (!perRole.isEmpty()) {
            flow.put("connector_config", perRole);
        }
        return flow;
    }

    /** @return the connector's settings that the configuration may declare, placeholders escaped */
    private static Node connectorConfig(ConnectorRole role, LiveConnector c, List<Adoption.LeftOut> leftOut) {
        Node config = new Node();
        for (Map.Entry<String, String> e : c.config().entrySet()) {
            if (FROM_ARGUMENTS.contains(e.getKey())) {
                continue;
            }
            String reason = reasonToLeaveOut(role, e.getKey(), e.getValue());
            if (reason != null) {
                leftOut.add(new Adoption.LeftOut(describe(c) + " config " + e.getKey(), reason));
            } else {
                config.put(e.getKey(), escape(e.getValue()));
            }
        }
        return config;
    }

    /** @return why a connector setting is not written, or null when it is */
    private static String reasonToLeaveOut(ConnectorRole role, String key, String value) {
        if (value == null) {
            return "it has no value";
        }
        Optional<Finding> rule = ConnectorRules.configEntry(key, value.strip().toLowerCase(Locale.ROOT),
                Set.of(role.suffix()), "connector_config." + role.suffix());
        if (rule.isPresent()) {
            return rule.get().summary() + "; adopt leaves it as it is";
        }
        return literalCredential(key, value);
    }

    /** @return why the value is not written (a literal credential under a credential key), or null when it may be */
    static String literalCredential(String key, String value) {
        if (key.endsWith(".class")) {
            return null; // a class name, e.g. config.providers.secrets.class, never a credential
        }
        if (CREDENTIAL_KEY.matcher(key).matches() && !PLACEHOLDER.matcher(value).find()) {
            return "it holds a literal credential, which import never writes into configuration; adopt leaves it as it "
                    + "is (reference a Secret through a config provider instead, e.g. ${secrets:<namespace>/<secret>:<key>})";
        }
        return null;
    }

    /** @return the text as a literal of the configuration language: {@code ${} written as {@code $${} */
    static String escape(String value) {
        return value.replace("${", "$${");
    }

    private static String describe(LiveConnector c) {
        return "KafkaConnector " + c.namespace() + "/" + c.name();
    }
}
