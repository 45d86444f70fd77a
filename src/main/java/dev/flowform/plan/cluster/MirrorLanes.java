package dev.flowform.plan.cluster;

import dev.flowform.model.ConnectorRole;
import dev.flowform.model.EosMode;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import dev.flowform.plan.rules.MirrorCheck;
import dev.flowform.plan.rules.StopBeforeChange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The mirrors of a KafkaMirrorMaker2 whose source connector change is applied as stop, reconfigure, start
 * ({@link StopBeforeChange}): one patch stops them all and marks the state each returns to, a wait, then the mirrors
 * patch carries that state and removes the mark. Pure.
 *
 * @param stopFirst the source aliases of the mirrors to stop first
 * @param marked    the source aliases of the mirrors flowform stopped already (an apply that did not finish)
 * @param work      the work of both, by the order of the mirrors
 * @param seen      true when the live status already shows every connector as its spec asks (the marked ones stopped)
 */
record MirrorLanes(List<String> stopFirst, List<String> marked, List<MirrorWork> work, boolean seen) {

    MirrorLanes {
        stopFirst = List.copyOf(stopFirst);
        marked = List.copyOf(marked);
        work = List.copyOf(work);
    }

    /**
     * @param mode  the workers' mode when the mirrors patch is written
     * @return the mirrors to stop first and those stopped already
     */
    static MirrorLanes of(ClusterFacts facts, MirrorMakerKind f, EosMode mode) {
        List<String> stop = new ArrayList<>();
        List<String> marked = new ArrayList<>();
        List<MirrorWork> work = new ArrayList<>();
        for (MirrorWork w : f.mirrors()) {
            boolean canStop = StopBeforeChange.canStop(ConnectorRole.SOURCE, facts.kafkaVersion(), facts.replicas(),
                    !w.liveRequiresEos() || mode == EosMode.ENABLED);
            switch (StopBeforeChange.lane(w.sourceConnectorEdits(), w.liveState(), w.mark(), w.targetState(), canStop)) {
                case STOP_FIRST -> stop.add(w.source());
                case ALREADY_STOPPED -> marked.add(w.source());
                default -> {
                    continue;
                }
            }
            work.add(w);
        }
        boolean seen = f.live() != null && MirrorCheck.evaluate(f.live(), f.live().workers().generation()).isComplete();
        return new MirrorLanes(stop, marked, work, seen);
    }

    /** Adds the stop of the source connectors to stop first, and the wait until they (and the marked ones) are. */
    void stopSteps(StepSequencer s, MirrorMakerKind f) {
        String name = f.desired().name();
        if (!stopFirst.isEmpty()) {
            List<FieldEdit> edits = new ArrayList<>();
            for (MirrorWork w : work) {
                if (stopFirst.contains(w.source())) {
                    edits.add(FieldEdit.set(statePath(f.v1(), w.source()), StopBeforeChange.STOPPED, false));
                    edits.add(FieldEdit.set(markPath(w.source()), w.targetState(), false));
                }
            }
            s.add(new Draft(StepKind.STOP_CONNECTOR, f.address(), f.ref(), new StepPayload.PatchObject(edits),
                    "stop " + connectors(f, stopFirst) + " (sourceConnector.state: stopped): Kafka Connect drops the "
                            + "tasks of the current configuration"));
        }
        if (s.facts().replicas() > 0 && (!stopFirst.isEmpty() || (!marked.isEmpty() && !seen))) {
            List<String> all = new ArrayList<>(stopFirst);
            all.addAll(marked);
            s.add(new Draft(StepKind.WAIT_FOR_CONNECTOR_READY, f.address(), f.ref(),
                    new StepPayload.WaitForConnector("STOPPED", null), "wait until " + connectors(f, all)
                    + " of KafkaMirrorMaker2 " + name + (all.size() == 1 ? " is STOPPED and none of its tasks runs"
                    : " are STOPPED and none of their tasks runs")));
        }
    }

    /**
     * @param v1 true for the {@code v1} layout
     * @return the edits that start each stopped source connector again in its state to return to, and remove its mark
     */
    List<FieldEdit> startEdits(boolean v1) {
        List<FieldEdit> out = new ArrayList<>();
        for (MirrorWork w : work) {
            out.add(FieldEdit.set(statePath(v1, w.source()), w.targetState(), false));
            out.add(FieldEdit.remove(markPath(w.source()), false));
        }
        return out;
    }

    /** @return how the mirrors patch's summary names each start, by the mirror's source alias, in mirror order */
    Map<String, String> startParts() {
        Map<String, String> out = new LinkedHashMap<>();
        work.forEach(w -> out.put(w.source(), "then start its source connector (state " + w.targetState() + ")"));
        return out;
    }

    private static List<String> statePath(boolean v1, String alias) {
        return List.of("spec", "mirrors", MirrorWork.mirrorSelector(v1, alias), "sourceConnector", "state");
    }

    private static List<String> markPath(String alias) {
        return List.of("metadata", "annotations", StopBeforeChange.mirrorAnnotation(alias));
    }

    private static String connectors(MirrorMakerKind f, List<String> aliases) {
        String target = f.target();
        return String.join(", ", aliases.stream().map(a -> MirrorMaker2Names.sourceConnector(a, target)).toList());
    }
}
