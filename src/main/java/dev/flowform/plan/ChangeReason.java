package dev.flowform.plan;

import dev.flowform.model.EosMode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a plan changes an object (Terraform's {@code plans.ResourceInstanceChangeActionReason}), with the words the plan
 * shows; several are joined by {@code "; "}. The document keeps only the words, which {@link #read} recognises
 * again ({@link #OTHER} for words this version does not write).
 */
public enum ChangeReason {
    /** The KafkaConnect does not exist: a new cluster starts with its final mode (KIP-618). */
    CONNECT_CLUSTER_MISSING("KafkaConnect %s does not exist; a new cluster starts with " + EosMode.CONFIG_KEY
            + "=%s directly (KIP-618)"),
    /** An existing cluster goes disabled, preparing (roll), enabled (roll): rule 2. */
    EOS_ROLLOUT("exactly-once rollout of an existing cluster: %s, rolling restart, %s, rolling restart (KIP-618)"),
    /** One step of the workers' mode up, one roll. */
    EOS_MODE_UP(EosMode.CONFIG_KEY + " %s -> %s, one rolling restart"),
    /** One step of the workers' mode down, after the connectors dropped {@code required}: rule 5. */
    EOS_MODE_DOWN(EosMode.CONFIG_KEY + " %s -> %s, one rolling restart, after the connectors (KIP-618 reverse order)"),
    /** The cluster gets {@code strimzi.io/use-connector-resources}: rule 6. */
    CONNECTOR_RESOURCES("enable KafkaConnector resources"),
    /** Other spec fields differ; the operator rolls once. */
    SPEC_CHANGED("spec changed; one rolling restart"),
    /** The group id or a storage topic changes under exactly-once workers. */
    NEW_CLUSTER_IDENTITY("new exactly-once identity (KIP-618): %s"),
    /** The KafkaConnector does not exist. */
    CONNECTOR_MISSING("KafkaConnector %s does not exist"),
    /** The flow's source connector turns exactly-once on, after the workers run enabled: rules 3 and 4. */
    CONNECTOR_EOS_ON("exactly-once for the flow's source connector: read_committed source consumer and "
            + "exactly.once.support=required, after every worker runs with enabled"),
    /** The flow's source connector drops {@code required} before the workers leave enabled: rule 5. */
    CONNECTOR_EOS_OFF("exactly-once off for the flow: exactly.once.support back to requested before the workers leave "
            + "enabled (KIP-618 reverse order)"),
    /** The change is applied as stop, reconfigure, start (docs/domain-rules.md 8b). */
    STOP_START("stopped first, then reconfigured and started, so that no task of the old configuration runs once apply "
            + "is complete (KIP-875)"),
    /** A connector an apply that did not finish left stopped (its resume mark) is started again. */
    RESUME_STOPPED("stopped by an apply that did not finish: reconfigured and started again (spec.state %s)"),
    /** Other connector configuration differs from its flow. */
    CONNECTOR_CONFIG("connector configuration differs from %s"),
    /** No flow produces the connector any more (Terraform: delete because no resource configuration). */
    NO_FLOW("no replication flow in the configuration produces it (created by flowform in environment \"%s\")"),
    /** Only our ownership marks are written. */
    OWNERSHIP_MARKS("ownership marks"),
    /** An unmarked object is claimed with {@code --transfer-ownership}. */
    OWNERSHIP_CLAIMED("ownership claimed (--transfer-ownership)"),
    /** An object marked by another state is taken over with {@code --transfer-ownership}. */
    OWNERSHIP_TAKEN_OVER("ownership taken over from %s (--transfer-ownership)"),
    /** The KafkaMirrorMaker2 does not exist: it starts with its final mode (KIP-618). */
    MIRROR_MAKER_MISSING("KafkaMirrorMaker2 %s does not exist; it starts with " + EosMode.CONFIG_KEY + "=%s directly (KIP-618)"),
    /** A mirror's source connector turns exactly-once on, after the workers run enabled: rules 3 and 4. */
    MIRROR_EOS_ON("exactly-once for mirror(s) %s: source.consumer.isolation.level=read_committed and "
            + "exactly.once.support=required in sourceConnector.config only, after every worker runs with enabled"),
    /** A mirror's source connector drops {@code required} before the workers leave enabled: rule 5. */
    MIRROR_EOS_OFF("exactly-once off for mirror(s) %s: exactly.once.support removed before the workers leave enabled "
            + "(KIP-618 reverse order)"),
    /** A mirror's source connector change is applied as stop, reconfigure, start (docs/domain-rules.md 8b). */
    MIRROR_STOP_START("source connector of mirror(s) %s stopped first, then reconfigured and started, so that no task of "
            + "the old configuration runs once apply is complete (KIP-875)"),
    /** A mirror's source connector an apply that did not finish left stopped is started again. */
    MIRROR_RESUME_STOPPED("source connector of mirror(s) %s stopped by an apply that did not finish: started again"),
    /** Other mirror settings differ from the configuration. */
    MIRROR_CONFIG("mirror settings differ from the configuration"),
    /** A task FAILED and nothing else restarts it: the operator is asked to (the annotation is the second value). */
    TASK_RESTART("restart FAILED task %s (%s)"),
    /** A mirror's source alias is renamed: Strimzi deletes the old alias's connectors and creates new ones. */
    MIRROR_ALIAS_RENAMED("source alias %s renamed to %s: Strimzi deletes the connectors of the old alias and creates new "
            + "ones, with new offsets"),
    /** The target alias is renamed: Strimzi deletes every connector and creates them under the new name. */
    MIRROR_TARGET_RENAMED("target alias %s renamed to %s: Strimzi deletes the connectors of the old alias and creates "
            + "new ones, with new offsets"),
    /** A mirror is removed from the KafkaMirrorMaker2: Strimzi deletes its connectors. */
    MIRROR_REMOVED("mirror %s is not in the configuration: Strimzi deletes the connectors it no longer generates"),
    /** A mirror is added to the KafkaMirrorMaker2: Strimzi creates its connectors. */
    MIRROR_ADDED("mirror %s is added: Strimzi creates its connectors"),
    /** Words this version does not write, read from a plan document; kept as they are. */
    OTHER("%s");

    private final String words;
    private final Pattern pattern;
    private final Pattern start;

    ChangeReason(String words) {
        this.words = words;
        String[] parts = words.split("%s", -1);
        StringBuilder full = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            full.append(i == 0 ? "" : "(.+)").append(Pattern.quote(parts[i]));
        }
        this.pattern = Pattern.compile(full.toString(), Pattern.DOTALL);
        this.start = parts[0].isEmpty() ? null : Pattern.compile(Pattern.quote(parts[0]));
    }

    /**
     * @param args the values the words name, in order (see each constant's words)
     * @return this reason with its words
     * @throws IllegalArgumentException when the number of values does not match the words
     */
    public Change.Reason of(Object... args) {
        int expected = words.split("%s", -1).length - 1;
        if (args.length != expected) {
            throw new IllegalArgumentException(this + " takes " + expected + " value(s), not " + args.length);
        }
        return new Change.Reason(this, String.format(words, args));
    }

    /**
     * Recognises the reasons in the words of a plan document: a {@code "; "} starts a new reason when the words
     * after it begin as a reason's do and the words before it are a whole reason. {@code text} is as
     * {@link Change#reason()} joined them; null or empty for none.
     *
     * @return the reasons, each with its words; an unrecognised part is {@link #OTHER}
     */
    public static List<Change.Reason> read(String text) {
        List<Change.Reason> out = new ArrayList<>();
        if (text == null || text.isEmpty()) {
            return out;
        }
        int from = 0;
        int at = text.indexOf("; ");
        while (at >= 0) {
            String head = text.substring(from, at);
            if (startsReason(text, at + 2) && recognise(head) != OTHER) {
                out.add(new Change.Reason(recognise(head), head));
                from = at + 2;
            }
            at = text.indexOf("; ", at + 2);
        }
        String rest = text.substring(from);
        out.add(new Change.Reason(recognise(rest), rest));
        return out;
    }

    private static boolean startsReason(String text, int at) {
        for (ChangeReason r : values()) {
            if (r.start != null && r.start.matcher(text).region(at, text.length()).lookingAt()) {
                return true;
            }
        }
        return false;
    }

    private static ChangeReason recognise(String words) {
        for (ChangeReason r : values()) {
            Matcher m = r.pattern.matcher(words);
            if (r != OTHER && m.matches()) {
                return r;
            }
        }
        return OTHER;
    }
}
