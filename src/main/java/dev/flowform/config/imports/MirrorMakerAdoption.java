package dev.flowform.config.imports;

import dev.flowform.config.syntax.Formatter;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.plan.rules.ConnectorRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code mirrormaker2} file of one KafkaMirrorMaker2 (either layout, Strimzi {@code KafkaMirrorMaker2Cluster}):
 * {@code manage = "adopt"}, the target alias, and one {@code mirror} per {@code spec.mirrors[]} entry with its source
 * alias and {@code exactly_once} (on when asked, or when the entry's {@code sourceConnector.config} already has
 * {@code exactly.once.support: required}). Nothing else is declared, so adopt leaves the rest as it is. Pure.
 */
final class MirrorMakerAdoption {

    private MirrorMakerAdoption() {
    }

    /**
     * @param m           the KafkaMirrorMaker2
     * @param exactlyOnce true to write every mirror with exactly-once on
     * @param leftOut     receives the mirrors that name no source alias
     * @return the file {@code <name>.mirrormaker2.flow.json}
     */
    static Adoption.File file(LiveMirrorMaker2 m, boolean exactlyOnce, List<Adoption.LeftOut> leftOut) {
        List<Node> mirrors = new ArrayList<>();
        boolean anyExactlyOnce = false;
        for (LiveMirrorMaker2.Mirror mirror : m.mirrors()) {
            if (mirror.source() == null) {
                leftOut.add(new Adoption.LeftOut("KafkaMirrorMaker2 " + m.namespace() + "/" + m.name() + " mirror without "
                        + "a source alias", "a mirror block needs its source alias"));
                continue;
            }
            boolean eos = exactlyOnce || ConnectorRules.isRequired(mirror.sourceConfig().get(ConnectorRules.EXACTLY_ONCE_SUPPORT));
            anyExactlyOnce |= eos;
            mirrors.add(new Node().put("source", new Node().put("alias", AdoptionWriter.escape(mirror.source())))
                    .put("exactly_once", eos));
        }
        Node body = new Node().put("manage", "adopt").put("namespace", m.namespace());
        Optional<EosMode> workers = m.workers().eosMode();
        if (!anyExactlyOnce && workers.isPresent() && workers.get() != EosMode.DISABLED) {
            body.put("exactly_once_source_support", workers.get().value());
        }
        if (m.target() != null) {
            body.put("target", new Node().put("alias", AdoptionWriter.escape(m.target())));
        }
        body.put("mirror", mirrors);
        Node root = new Node().put("//", "Adopted by flowform import from namespace " + m.namespace() + ": flowform owns "
                + "the exactly-once keys and what is declared here; the rest is left as it is.");
        root.put("mirrormaker2", new Node().put(m.name(), body));
        return new Adoption.File(m.name() + ".mirrormaker2.flow.json", Formatter.format(root.build()));
    }
}
